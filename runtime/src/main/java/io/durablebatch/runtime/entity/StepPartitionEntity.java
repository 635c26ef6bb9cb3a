package io.durablebatch.runtime.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** One partition of a partitioned step's execution: its key, input, worker and result. */
@Entity(name = "DurableBatchStepPartition")
@Table(name = "dbatch_step_partition")
public class StepPartitionEntity extends VersionedColumns {

    @Column(name = "parent_step_execution_id", nullable = false)
    public long parentStepExecutionId;

    @Column(nullable = false)
    public int ordinal;

    @Column(name = "partition_key", nullable = false, length = 512)
    public byte[] partitionKey;

    @Column(nullable = false, length = 16384)
    public byte[] input;

    @Column(name = "worker_step_execution_id")
    public Long workerStepExecutionId;

    @Column(name = "previous_worker_step_execution_id")
    public Long previousWorkerStepExecutionId;

    @Column(name = "release_count", nullable = false)
    public int releaseCount;

    @Embedded
    public StepCountersColumns counters = new StepCountersColumns();

    @Column(name = "restarted_from")
    public Long restartedFrom;

    @Column(name = "assigned_at")
    public Instant assignedAt;

    @Column(name = "completed_at")
    public Instant completedAt;
}
