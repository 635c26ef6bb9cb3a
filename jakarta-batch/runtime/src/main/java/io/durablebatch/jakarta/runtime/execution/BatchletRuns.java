package io.durablebatch.jakarta.runtime.execution;

import java.io.Serializable;
import java.util.Optional;

import jakarta.batch.api.Batchlet;
import jakarta.inject.Singleton;

import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.jakarta.runtime.JakartaJobs;
import io.durablebatch.jakarta.runtime.artifact.BatchArtifacts;
import io.durablebatch.jakarta.runtime.artifact.CurrentArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslBatchlet;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;
import io.durablebatch.job.RepeatStatus;

/**
 * Runs one batchlet step attempt: resolves the job's, step's and batchlet's properties for the
 * execution, resolves the artifact, calls {@code process()} and takes what it returns as the step's
 * exit status. The step's persistent user data is the kernel tasklet's checkpoint: resumed from the
 * step's previous attempt, and kept with the attempt's end.
 */
@Singleton
public class BatchletRuns {

    private final JakartaJobs jobs;
    private final ExecutionContexts contexts;
    private final StepRuns stepRuns;
    private final AttemptContexts attemptContexts;

    BatchletRuns(JakartaJobs jobs, ExecutionContexts contexts, StepRuns stepRuns, AttemptContexts attemptContexts) {
        this.jobs = jobs;
        this.contexts = contexts;
        this.stepRuns = stepRuns;
        this.attemptContexts = attemptContexts;
    }

    /**
     * One call of the step's tasklet. A batchlet asked to stop returns from {@code process()}; the
     * tasklet then says it is not finished, so the kernel, which has the stop request already, ends
     * the step STOPPED instead of COMPLETED (a restart runs the batchlet again).
     */
    RepeatStatus run(JslJob job, JslStep step, StepContext kernel) throws Exception {
        long executionId = kernel.jobExecutionId().value();
        AttemptContexts.Attempt attempt = attemptContexts.of(job, step, kernel);
        JakartaJobContext jobContext = attempt.jobContext();
        PropertyScope stepScope = attempt.stepScope();
        Optional<PartitionContext> partition = attempt.partition();
        Serializable resumed = PersistentUserData.of(kernel.checkpoint());
        // a step with <listeners> was begun by them, and shares its context with them; a partition has a context of its own
        Optional<StepRun> begun = partition.isPresent() ? Optional.empty() : stepRuns.find(attempt.stepExecutionId());
        JakartaStepContext stepContext = begun.map(StepRun::context).orElseGet(() -> new JakartaStepContext(step.id(),
                attempt.stepExecutionId(), stepScope.properties(), jobContext, resumed));
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
                try {
                    keepUserData(stepContext, kernel);
                } catch (IllegalArgumentException unkept) {
                    e.addSuppressed(unkept);
                }
                if (partition.isPresent()) {
                    try {
                        attemptContexts.collect(step, stepScope, stepContext, kernel);
                    } catch (Exception collecting) {
                        e.addSuppressed(collecting);
                    }
                }
                throw e;
            } finally {
                contexts.ended(executionId, running);
            }
            if (partition.isPresent()) {
                attemptContexts.collect(step, stepScope, stepContext, kernel);
            }
            keepUserData(stepContext, kernel);
            String code = exitStatus != null ? exitStatus : stepContext.getExitStatus();
            // a partition's exit status is its own, for the step's analyzer: the step's is set on its thread
            if (code != null && (partition.isEmpty() || step.partition().orElseThrow().analyzer().isPresent())) {
                kernel.setExitStatus(exitStatus(code, artifact));
            }
            return running.stopRequested() ? RepeatStatus.CONTINUABLE : RepeatStatus.FINISHED;
        }
    }

    /**
     * Hands the step's persistent user data, as it is at the end of {@code process()}, to the kernel
     * as the tasklet's checkpoint: recorded with the step's end, a failure included.
     */
    private static void keepUserData(JakartaStepContext stepContext, StepContext kernel) {
        if (stepContext.persistentUserDataSet()) {
            kernel.saveCheckpoint(PersistentUserData.checkpoint(stepContext.getPersistentUserData(),
                    stepContext.getStepName()));
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
