package io.durablebatch.runtime.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;

import io.durablebatch.repository.control.OperatorAction;

/** The audit record of an operator's request, unique per action and operation id (idempotent replays). */
@Entity(name = "DurableBatchOperatorRequest")
@Table(name = "dbatch_operator_request")
public class OperatorRequestEntity extends AuditColumns {

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    public OperatorAction action;

    @Column(name = "job_instance_id", nullable = false)
    public long jobInstanceId;

    @Column(name = "job_execution_id")
    public Long jobExecutionId;
}
