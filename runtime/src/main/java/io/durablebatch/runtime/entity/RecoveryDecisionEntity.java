package io.durablebatch.runtime.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.repository.RecoveryResolution;

/** The append-only record of a recovery: at most one per execution and one per operation id. */
@Entity(name = "DurableBatchRecoveryDecision")
@Table(name = "dbatch_recovery_decision")
@EntityListeners(RepositoryOwned.class)
public class RecoveryDecisionEntity {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "job_execution_id", nullable = false)
    public long jobExecutionId;

    @Column(name = "job_instance_id", nullable = false)
    public long jobInstanceId;

    @Column(name = "operation_id", nullable = false, length = 200)
    public String operationId;

    @Column(nullable = false, length = 200)
    public String actor;

    @Column(nullable = false, length = 100)
    public String reason;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    public RecoveryResolution resolution;

    @Enumerated(EnumType.STRING)
    @Column(name = "observed_status", nullable = false, length = 16)
    public ExecutionStatus observedStatus;

    @Column(name = "observed_version", nullable = false)
    public long observedVersion;

    @Column(name = "resulting_version", nullable = false)
    public long resultingVersion;

    @Column(name = "resolved_steps", nullable = false)
    public int resolvedSteps;

    @Column(name = "decided_at", nullable = false)
    public Instant decidedAt;
}
