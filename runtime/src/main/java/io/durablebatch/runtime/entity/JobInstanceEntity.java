package io.durablebatch.runtime.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A job instance: one per canonical key, unique by the key's SHA-256 digest. */
@Entity(name = "DurableBatchJobInstance")
@Table(name = "dbatch_job_instance")
@EntityListeners(RepositoryOwned.class)
public class JobInstanceEntity {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "job_name", nullable = false, length = 100)
    public String jobName;

    @Column(name = "key_bytes", nullable = false)
    public byte[] keyBytes;

    @Column(name = "key_digest", nullable = false, length = 32)
    public byte[] keyDigest;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
