package io.durablebatch.runtime.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The partition plan of a partitioned step's execution: how many partitions, and whose it restarts. */
@Entity(name = "DurableBatchStepPartitionPlan")
@Table(name = "dbatch_step_partition_plan")
@EntityListeners(RepositoryOwned.class)
public class StepPartitionPlanEntity {

    @Id
    @Column(name = "parent_step_execution_id")
    public long parentStepExecutionId;

    @Column(name = "partition_count", nullable = false)
    public int partitionCount;

    @Column(name = "restarted_from")
    public Long restartedFrom;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
