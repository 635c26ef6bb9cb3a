package io.durablebatch.runtime.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.Version;

import io.durablebatch.execution.ExecutionStatus;

/**
 * What the rows with a lifecycle share (job and step executions, partitions): identity, status,
 * exit status, creation and last change, and the version every change of the row increments
 * (optimistic locking, SPEC §5).
 */
@MappedSuperclass
@EntityListeners(RepositoryOwned.class)
public abstract class VersionedColumns {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    public ExecutionStatus status;

    @Column(name = "exit_code", nullable = false, length = 2000)
    public String exitCode;

    @Column(name = "exit_description", nullable = false, columnDefinition = "text")
    public String exitDescription;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "last_updated", nullable = false)
    public Instant lastUpdated;

    @Version
    @Column(nullable = false)
    public long version;
}
