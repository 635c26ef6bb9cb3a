package io.durablebatch.runtime.jakarta.execution;

import jakarta.batch.api.Batchlet;
import jakarta.inject.Singleton;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.StepContext;
import io.durablebatch.runtime.jakarta.JakartaJobs;
import io.durablebatch.runtime.jakarta.artifact.BatchArtifacts;
import io.durablebatch.runtime.jakarta.artifact.CurrentArtifact;
import io.durablebatch.runtime.jakarta.jsl.JslArtifact;
import io.durablebatch.runtime.jakarta.jsl.JslBatchlet;
import io.durablebatch.runtime.jakarta.jsl.JslJob;
import io.durablebatch.runtime.jakarta.jsl.JslStep;
import io.durablebatch.runtime.jakarta.jsl.PropertyScope;

/**
 * Runs one batchlet step attempt: resolves the job's, step's and batchlet's properties for the
 * execution, resolves the artifact, calls {@code process()} and takes what it returns as the step's
 * exit status.
 */
@Singleton
public class BatchletRuns {

    private final JakartaJobs jobs;
    private final ExecutionContexts contexts;
    private final StepRuns stepRuns;

    BatchletRuns(JakartaJobs jobs, ExecutionContexts contexts, StepRuns stepRuns) {
        this.jobs = jobs;
        this.contexts = contexts;
        this.stepRuns = stepRuns;
    }

    /**
     * One call of the step's tasklet. A batchlet asked to stop returns from {@code process()}; the
     * tasklet then says it is not finished, so the kernel, which has the stop request already, ends
     * the step STOPPED instead of COMPLETED (a restart runs the batchlet again).
     */
    RepeatStatus run(JslJob job, JslStep step, StepContext kernel) throws Exception {
        long executionId = kernel.jobExecutionId().value();
        JakartaJobContext jobContext = contexts.job(job, kernel.job());
        PropertyScope stepScope = jobContext.scope().enter(step.properties());
        // a step with <listeners> was begun by them, and shares its context with them
        JakartaStepContext stepContext = stepRuns.find(kernel.stepExecutionId().value()).map(StepRun::context)
                .orElseGet(() -> new JakartaStepContext(step.id(), kernel.stepExecutionId().value(),
                        stepScope.properties(), jobContext));
        JslArtifact artifact = ((JslBatchlet) step.work().orElseThrow()).artifact();
        PropertyScope artifactScope = stepScope.enter(artifact.properties());
        CurrentArtifact current = new CurrentArtifact(artifact.location().toString(), jobContext, stepContext,
                artifactScope.properties());
        String ref = stepScope.resolve(artifact.ref());
        try (BatchArtifacts.Resolved<Batchlet> resolved = jobs.artifacts().resolve(ref, Batchlet.class, current)) {
            ExecutionContexts.Running running = new ExecutionContexts.Running(resolved.get());
            contexts.started(executionId, running);
            String exitStatus;
            try {
                exitStatus = current.call(resolved.get()::process);
            } catch (Exception e) {
                stepContext.failedWith(e);
                throw e;
            } finally {
                contexts.ended(executionId);
            }
            String code = exitStatus != null ? exitStatus : stepContext.getExitStatus();
            if (code != null) {
                kernel.setExitStatus(exitStatus(code, artifact));
            }
            return running.stopRequested() ? RepeatStatus.CONTINUABLE : RepeatStatus.FINISHED;
        }
    }

    private static ExitStatus exitStatus(String code, JslArtifact artifact) {
        try {
            return ExitStatus.of(code);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the exit status \"" + code + "\" of " + artifact.location()
                    + " cannot be recorded: " + e.getMessage(), e);
        }
    }
}
