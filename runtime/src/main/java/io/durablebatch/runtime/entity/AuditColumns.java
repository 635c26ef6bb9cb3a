package io.durablebatch.runtime.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/**
 * What the audit records of requests share (operator and retention requests): who asked under
 * which operation id, the digest that tells a replay from another request, and the outcome.
 */
@MappedSuperclass
@EntityListeners(RepositoryOwned.class)
public abstract class AuditColumns {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "operation_id", nullable = false, length = 200)
    public String operationId;

    @Column(nullable = false, length = 200)
    public String actor;

    @Column(name = "request_digest", nullable = false, length = 32)
    public byte[] requestDigest;

    @Column(nullable = false, length = 2000)
    public String outcome;

    @Column(name = "recorded_at", nullable = false)
    public Instant recordedAt;
}
