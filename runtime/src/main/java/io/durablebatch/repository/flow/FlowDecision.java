package io.durablebatch.repository.flow;

import java.time.Instant;
import java.util.Optional;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.PlanFingerprint;

/**
 * Snapshot of one appended flow decision. {@code sequence} numbers the decisions of one job
 * execution from one, without gaps, in the order they were appended.
 */
public record FlowDecision(JobExecutionId jobExecutionId, int sequence, JobInstanceId jobInstanceId, NodeId fromNode,
        Optional<NodeId> toNode, FlowTransitionKind kind, PlanFingerprint planFingerprint, InputDigest inputDigest,
        ExitStatus outcome, Instant decidedAt) {
}
