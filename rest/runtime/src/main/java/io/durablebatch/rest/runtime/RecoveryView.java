package io.durablebatch.rest.runtime;

import java.time.Instant;

import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.RecoveryResult;

/** The answer to a recovery: the recorded decision and the execution as it now is. */
public record RecoveryView(Decision decision, ExecutionView execution, boolean replayed) {

    /** A recovery decision as recorded in the recovery audit. */
    public record Decision(long jobExecutionId, long jobInstanceId, String operationId, String actor, String reason,
            String resolution, String observedStatus, long observedVersion, long resultingVersion, int resolvedSteps,
            Instant decidedAt) {

        static Decision of(RecoveryDecision d) {
            return new Decision(d.jobExecutionId().value(), d.jobInstanceId().value(), d.operationId().value(),
                    d.actor().value(), d.reason().value(), d.resolution().name(), d.observedStatus().name(),
                    d.observedVersion().value(), d.resultingVersion().value(), d.resolvedSteps(), d.decidedAt());
        }
    }

    static RecoveryView of(RecoveryResult result) {
        return new RecoveryView(Decision.of(result.decision()), ExecutionView.of(result.execution()), result.replayed());
    }
}
