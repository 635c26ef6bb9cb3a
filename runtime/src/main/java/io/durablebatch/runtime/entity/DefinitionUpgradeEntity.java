package io.durablebatch.runtime.entity;

import java.io.Serializable;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/** A registered compatible upgrade of a job's definition, from one revision and plan to another. */
@Entity(name = "DurableBatchDefinitionUpgrade")
@Table(name = "dbatch_definition_upgrade")
@IdClass(DefinitionUpgradeEntity.Key.class)
@EntityListeners(RepositoryOwned.class)
public class DefinitionUpgradeEntity {

    @Id
    @Column(name = "job_name", length = 100)
    public String jobName;

    @Id
    @Column(name = "from_revision", length = 100)
    public String fromRevision;

    @Id
    @Column(name = "from_fingerprint")
    public byte[] fromFingerprint;

    @Id
    @Column(name = "to_revision", length = 100)
    public String toRevision;

    @Id
    @Column(name = "to_fingerprint")
    public byte[] toFingerprint;

    @Column(name = "registered_at", nullable = false)
    public Instant registeredAt;

    /** The primary key: the whole upgrade. */
    public static class Key implements Serializable {

        public String jobName;
        public String fromRevision;
        public byte[] fromFingerprint;
        public String toRevision;
        public byte[] toFingerprint;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && jobName.equals(key.jobName) && fromRevision.equals(key.fromRevision)
                    && Arrays.equals(fromFingerprint, key.fromFingerprint) && toRevision.equals(key.toRevision)
                    && Arrays.equals(toFingerprint, key.toFingerprint);
        }

        @Override
        public int hashCode() {
            return Objects.hash(jobName, fromRevision, Arrays.hashCode(fromFingerprint), toRevision,
                    Arrays.hashCode(toFingerprint));
        }
    }
}
