package io.durablebatch.runtime.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A partition handed back by (or taken from) a worker, and why: the record of its reassignments. */
@Entity(name = "DurableBatchPartitionRelease")
@Table(name = "dbatch_partition_release")
@EntityListeners(RepositoryOwned.class)
public class PartitionReleaseEntity {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "step_partition_id", nullable = false)
    public long stepPartitionId;

    @Column(name = "parent_step_execution_id", nullable = false)
    public long parentStepExecutionId;

    @Column(name = "worker_step_execution_id", nullable = false)
    public long workerStepExecutionId;

    @Column(nullable = false, length = 100)
    public String reason;

    @Column(name = "released_at", nullable = false)
    public Instant releasedAt;
}
