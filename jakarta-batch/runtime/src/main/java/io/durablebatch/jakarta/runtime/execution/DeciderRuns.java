package io.durablebatch.jakarta.runtime.execution;

import jakarta.batch.api.Decider;
import jakarta.batch.runtime.StepExecution;
import jakarta.inject.Singleton;

import io.durablebatch.context.DecisionContext;
import io.durablebatch.jakarta.runtime.JakartaJobs;
import io.durablebatch.jakarta.runtime.artifact.BatchArtifacts;
import io.durablebatch.jakarta.runtime.artifact.CurrentArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslDecision;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.operator.JakartaStepExecution;

/**
 * Runs one {@code <decision>}: resolves its decider with the decision's properties as the execution
 * resolves them, hands it the step executions of the element before the decision (a step, a flow's
 * last step, or the last step of every flow of a split) and takes the exit status it returns as the job's, which the decision's
 * transition
 * elements then match.
 */
@Singleton
public class DeciderRuns {

    private final JakartaJobs jobs;
    private final ExecutionContexts contexts;

    DeciderRuns(JakartaJobs jobs, ExecutionContexts contexts) {
        this.jobs = jobs;
        this.contexts = contexts;
    }

    String decide(JslJob job, JslDecision decision, DecisionContext kernel) throws Exception {
        JakartaJobContext jobContext = contexts.job(job, kernel.job());
        JslArtifact artifact = decision.decider();
        CurrentArtifact current = new CurrentArtifact(artifact.location().toString(), jobContext, null,
                jobContext.scope().enter(artifact.properties()).properties());
        StepExecution[] executions = kernel.lastStepExecutions().stream().map(JakartaStepExecution::new)
                .toArray(StepExecution[]::new);
        String ref = jobContext.scope().resolve(artifact.ref());
        try (BatchArtifacts.Resolved<Decider> resolved = jobs.artifacts().resolve(ref, Decider.class, current)) {
            String exitStatus = current.call(() -> resolved.get().decide(executions));
            if (exitStatus == null) {
                throw new IllegalStateException("the decider of " + artifact.location() + " returned no exit status");
            }
            // the specification: the decider's exit status becomes the job's, as by JobContext.setExitStatus
            jobContext.setExitStatus(exitStatus);
            return exitStatus;
        }
    }
}
