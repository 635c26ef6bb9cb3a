package io.durablebatch.runtime.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;

import io.durablebatch.repository.retention.RetentionAction;

/** The audit record of a retention request (hold, release, purge), unique per action and operation id. */
@Entity(name = "DurableBatchRetentionAction")
@Table(name = "dbatch_retention_action")
public class RetentionActionEntity extends AuditColumns {

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    public RetentionAction action;

    @Column(name = "job_instance_id")
    public Long jobInstanceId;
}
