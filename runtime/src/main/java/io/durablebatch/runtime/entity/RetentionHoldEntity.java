package io.durablebatch.runtime.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A retention hold: the job instance is kept, whatever a purge selects, until it is released. */
@Entity(name = "DurableBatchRetentionHold")
@Table(name = "dbatch_retention_hold")
@EntityListeners(RepositoryOwned.class)
public class RetentionHoldEntity {

    @Id
    @Column(name = "job_instance_id")
    public long jobInstanceId;

    @Column(nullable = false, length = 200)
    public String actor;

    @Column(nullable = false, length = 100)
    public String reason;

    @Column(name = "placed_at", nullable = false)
    public Instant placedAt;
}
