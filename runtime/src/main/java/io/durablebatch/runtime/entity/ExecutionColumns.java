package io.durablebatch.runtime.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.MappedSuperclass;

/** What job and step executions share beyond a versioned row: instance, failure, run times and lease. */
@MappedSuperclass
public abstract class ExecutionColumns extends VersionedColumns {

    @Column(name = "job_instance_id", nullable = false)
    public long jobInstanceId;

    @Column(name = "failure_type", length = 300)
    public String failureType;

    @Column(name = "failure_message", columnDefinition = "text")
    public String failureMessage;

    @Column(name = "started_at")
    public Instant startedAt;

    @Column(name = "ended_at")
    public Instant endedAt;

    /** Until when the owner's last sign of life holds the execution, on the database clock. */
    @Column(name = "lease_expires_at")
    public Instant leaseExpiresAt;
}
