package io.durablebatch.runtime.dev;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.control.ExecutionOwnership;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.flow.FlowDecision;
import io.durablebatch.repository.partition.StepPartition;

/**
 * The Dev UI's drill-down into one job execution: its parameters, who owns it (owner token, stop
 * request, lease), its step attempts with their counters, the flow decisions it took, if it was
 * recovered the recovery decision, and the latest operator requests on its instance (the audit). A partitioned step's
 * partitions are paged separately
 * ({@code partitions}).
 */
public record ExecutionDetail(ExecutionView execution, Map<String, String> parameters, OwnershipView ownership,
        List<StepView> steps, List<DecisionView> decisions, RecoveryView recovery, List<AuditView> audit) {

    /** How many of the instance's operator requests the drill-down shows, newest first. */
    static final int AUDIT_SIZE = 20;

    /** One operator request on the instance: what, by whom, on which execution, with what outcome. */
    public record AuditView(String action, String actor, Long execution, String outcome, String recordedAt) {

        static AuditView of(OperatorRecord record) {
            return new AuditView(record.action().name(), record.actor().value(),
                    record.target().jobExecutionId().map(JobExecutionId::value).orElse(null), record.outcome(),
                    ExecutionView.text(record.recordedAt()));
        }
    }

    /** Who owns the execution and whether it was asked to stop; {@code leaseLive} on the database clock. */
    public record OwnershipView(String owner, String ownerClaimedAt, String stopRequestedAt, String stopRequestedBy,
            String leaseExpiresAt, boolean leaseLive) {

        static OwnershipView of(ExecutionOwnership ownership) {
            return new OwnershipView(ownership.owner().map(Object::toString).orElse(null),
                    ExecutionView.text(ownership.ownerClaimedAt()), ExecutionView.text(ownership.stopRequestedAt()),
                    ownership.stopRequestedBy().map(actor -> actor.value()).orElse(null),
                    ExecutionView.text(ownership.leaseExpiresAt()), ownership.leaseLive());
        }
    }

    /**
     * One step attempt with its durable counters; {@code partitioned} says it is the parent of a
     * partition plan, {@code progress} is set for a running one whose input size is known here.
     */
    public record StepView(long id, String name, String status, String exitCode, String failure, String startedAt,
            String endedAt, long version, long readCount, long writeCount, long filterCount, long skipCount,
            long commitCount, long rollbackCount, boolean partitioned, Progress progress) {

        static StepView of(StepExecution step, boolean partitioned, Progress progress) {
            StepCounters counters = step.counters();
            return new StepView(step.id().value(), step.stepName().value(), step.status().name(), step.exitStatus().code(),
                    ExecutionView.failure(step.failure()), ExecutionView.text(step.startedAt()),
                    ExecutionView.text(step.endedAt()), step.version().value(), counters.readCount(), counters.writeCount(),
                    counters.filterCount(), counters.skipCount(), counters.commitCount(), counters.rollbackCount(),
                    partitioned, progress);
        }
    }

    /** One flow decision: from which node to which ({@code null} for END and FAIL), of what kind, on which outcome. */
    public record DecisionView(int sequence, String from, String to, String kind, String outcome, String decidedAt) {

        static DecisionView of(FlowDecision decision) {
            return new DecisionView(decision.sequence(), decision.fromNode().value(),
                    decision.toNode().map(node -> node.value()).orElse(null), decision.kind().name(),
                    decision.outcome().code(), ExecutionView.text(decision.decidedAt()));
        }
    }

    /** How the execution was recovered: by whom, why, to what, from which observed status and version. */
    public record RecoveryView(String actor, String reason, String resolution, String observedStatus, long observedVersion,
            int resolvedSteps, String decidedAt) {

        static RecoveryView of(RecoveryDecision decision) {
            return new RecoveryView(decision.actor().value(), decision.reason().value(), decision.resolution().name(),
                    decision.observedStatus().name(), decision.observedVersion().value(), decision.resolvedSteps(),
                    ExecutionView.text(decision.decidedAt()));
        }
    }

    /**
     * One partition of a partitioned step: its key (as text when it is UTF-8, otherwise hexadecimal),
     * status, worker step attempt and counters.
     */
    public record PartitionView(long id, int ordinal, String key, String status, Long worker, String exitCode,
            long readCount, long writeCount, long skipCount, int releaseCount, String assignedAt, String completedAt) {

        static PartitionView of(StepPartition partition) {
            return new PartitionView(partition.id().value(), partition.ordinal(), key(partition.entry().key()),
                    partition.status().name(), partition.worker().map(worker -> worker.value()).orElse(null),
                    partition.exitStatus().code(), partition.counters().readCount(), partition.counters().writeCount(),
                    partition.counters().skipCount(), partition.releaseCount(), ExecutionView.text(partition.assignedAt()),
                    ExecutionView.text(partition.completedAt()));
        }

        private static String key(byte[] key) {
            try {
                return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(key)).toString();
            } catch (CharacterCodingException notText) {
                return "0x" + HexFormat.of().formatHex(key);
            }
        }
    }
}
