package io.durablebatch.runtime.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * An attempt to run a job instance (SPEC §3), with its owner, stop request and lease. Its column
 * {@code trace_parent} is not mapped: the tracing alone writes and reads it, and an entity update
 * (a recovery's) must not write back a value read before it.
 */
@Entity(name = "DurableBatchJobExecution")
@Table(name = "dbatch_job_execution")
public class JobExecutionEntity extends ExecutionColumns {

    @Column(name = "job_name", nullable = false, length = 100)
    public String jobName;

    @Column(nullable = false)
    public int attempt;

    @Column(name = "definition_revision", length = 100)
    public String definitionRevision;

    @Column(name = "definition_fingerprint", length = 32)
    public byte[] definitionFingerprint;

    /** The attempt's non-identifying parameters, canonical bytes. */
    @Column
    public byte[] parameters;

    @Column(name = "owner_token", length = 200)
    public String ownerToken;

    @Column(name = "owner_claimed_at")
    public Instant ownerClaimedAt;

    @Column(name = "stop_requested_at")
    public Instant stopRequestedAt;

    @Column(name = "stop_requested_by", length = 200)
    public String stopRequestedBy;
}
