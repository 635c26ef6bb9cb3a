package io.durablebatch.runtime.entity;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.durablebatch.repository.flow.FlowTransitionKind;

/** One routing decision of a flow, in the order the execution made them. */
@Entity(name = "DurableBatchFlowDecision")
@Table(name = "dbatch_flow_decision")
@IdClass(FlowDecisionEntity.Key.class)
@EntityListeners(RepositoryOwned.class)
public class FlowDecisionEntity {

    @Id
    @Column(name = "job_execution_id")
    public long jobExecutionId;

    @Id
    @Column(name = "sequence")
    public int sequence;

    @Column(name = "job_instance_id", nullable = false)
    public long jobInstanceId;

    @Column(name = "from_node", nullable = false, length = 100)
    public String fromNode;

    @Column(name = "to_node", length = 100)
    public String toNode;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    public FlowTransitionKind kind;

    @Column(name = "plan_fingerprint", nullable = false, length = 32)
    public byte[] planFingerprint;

    @Column(name = "input_digest", nullable = false, length = 32)
    public byte[] inputDigest;

    @Column(name = "outcome_code", nullable = false, length = 2000)
    public String outcomeCode;

    @Column(name = "outcome_description", nullable = false, columnDefinition = "text")
    public String outcomeDescription;

    @Column(name = "decided_at", nullable = false)
    public Instant decidedAt;

    /** The primary key: execution and sequence. */
    public static class Key implements Serializable {

        public long jobExecutionId;
        public int sequence;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && jobExecutionId == key.jobExecutionId && sequence == key.sequence;
        }

        @Override
        public int hashCode() {
            return Objects.hash(jobExecutionId, sequence);
        }
    }
}
