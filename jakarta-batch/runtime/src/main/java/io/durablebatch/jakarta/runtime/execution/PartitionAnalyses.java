package io.durablebatch.jakarta.runtime.execution;

import java.io.Serializable;
import java.util.Optional;

import jakarta.batch.api.listener.StepListener;
import jakarta.batch.api.partition.PartitionAnalyzer;
import jakarta.batch.api.partition.PartitionReducer;
import jakarta.batch.api.partition.PartitionReducer.PartitionStatus;
import jakarta.batch.runtime.BatchStatus;
import jakarta.inject.Singleton;

import io.durablebatch.context.StepContext;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.jakarta.runtime.JakartaJobs;
import io.durablebatch.jakarta.runtime.artifact.CurrentArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslPartition;
import io.durablebatch.jakarta.runtime.jsl.JslStep;

/**
 * The work of a partitioned JSL step on its own thread, per attempt: {@code beginPartitionedStep}
 * before the plan, the analyzer's calls as partitions send data and end, and once all have ended the
 * reducer's {@code beforePartitionedStepCompletion} (or {@code rollbackPartitionedStep} when one
 * failed or stopped) and {@code afterPartitionedStepCompletion}; then the step's exit status: the one
 * set on the step's context if the step completed, else its batch status (a failed step exits
 * FAILED, as a failed batchlet step does: the translated transitions recognise it so).
 */
@Singleton
public class PartitionAnalyses {

    private final JakartaJobs jobs;
    private final ExecutionContexts contexts;

    PartitionAnalyses(JakartaJobs jobs, ExecutionContexts contexts) {
        this.jobs = jobs;
        this.contexts = contexts;
    }

    /**
     * The attempt's run, created by its first call: the kernel's {@code beforeStep} of a step with
     * {@code <listeners>} ({@link JslPartitionedStepListener}), else the plan's. The step's
     * {@code StepListener}s' {@code beforeStep} is called, then the reducer's {@code beginPartitionedStep}.
     */
    PartitionedStepRun run(JslJob job, JslStep step, StepContext kernel) throws Exception {
        Optional<PartitionedStepRun> known = contexts.partitionedStep(kernel.stepExecutionId().value());
        if (known.isPresent()) {
            return known.get();
        }
        JakartaJobContext jobContext = contexts.job(job, kernel.job());
        var stepScope = jobContext.scope().enter(step.properties());
        PartitionedStepRun run = new PartitionedStepRun(kernel.jobExecutionId().value(), jobContext,
                // the partitioned step's own context keeps no persistent user data: its partitions' contexts do
                new JakartaStepContext(step.id(), kernel.stepExecutionId().value(), stepScope.properties(), jobContext,
                        null),
                stepScope);
        contexts.partitionedStep(kernel.stepExecutionId().value(), run);
        if (!step.listeners().isEmpty()) {
            // the step's StepListeners come first, on this thread, with the step's own context
            StepRun listeners = new StepRun(job, step, stepScope, run.stepContext, kernel);
            run.listeners = Optional.of(listeners);
            listeners.resolveListeners(jobs.artifacts());
            listeners.call(StepListener.class, "beforeStep", StepListener::beforeStep);
        }
        JslPartition partition = step.partition().orElseThrow();
        if (partition.reducer().isPresent()) {
            run.reducer = Optional.of(resolve(run, partition.reducer().get(), PartitionReducer.class));
            call(run.reducer.get(), PartitionReducer::beginPartitionedStep);
        }
        if (partition.analyzer().isPresent()) {
            run.analyzer = Optional.of(resolve(run, partition.analyzer().get(), PartitionAnalyzer.class));
        }
        return run;
    }

    /**
     * A restart whose mapper overrides the stored plan discards the previous partitions' results:
     * the reducer's {@code rollbackPartitionedStep} is called before any partition runs.
     */
    void overriding(PartitionedStepRun run) throws Exception {
        if (run.reducer.isPresent()) {
            call(run.reducer.get(), PartitionReducer::rollbackPartitionedStep);
        }
    }

    void collected(JslJob job, JslStep step, StepContext parent, Object data) throws Exception {
        PartitionedStepRun run = run(job, step, parent);
        if (run.analyzer.isPresent()) {
            call(run.analyzer.get(), analyzer -> analyzer.analyzeCollectorData((Serializable) data));
        }
    }

    void ended(JslJob job, JslStep step, StepContext parent, ExecutionStatus status, ExitStatus exitStatus)
            throws Exception {
        PartitionedStepRun run = run(job, step, parent);
        if (run.analyzer.isPresent()) {
            call(run.analyzer.get(), analyzer -> analyzer.analyzeStatus(BatchStatus.valueOf(status.name()),
                    exitStatus.code()));
        }
    }

    void allEnded(JslJob job, JslStep step, StepContext parent, ExecutionStatus status) throws Exception {
        PartitionedStepRun run = run(job, step, parent);
        try {
            if (run.reducer.isPresent()) {
                reduce(run.reducer.get(), status == ExecutionStatus.COMPLETED);
            }
            // a step that failed or stopped exits so, as a failed batchlet step does: the translated
            // transitions recognise a failed step by its FAILED exit status
            String exit = run.stepContext.getExitStatus();
            parent.setExitStatus(ExitStatus.of(exit != null && status == ExecutionStatus.COMPLETED ? exit : status.name()));
        } finally {
            if (run.listeners.isEmpty()) {
                contexts.partitionedStepEnded(parent.stepExecutionId().value());
            }
        }
    }

    /**
     * The kernel's {@code afterStep} of a step with {@code <listeners>}, once its end is recorded: the
     * {@code StepListener}s' {@code afterStep}, in document order, then the attempt's run is released.
     */
    void afterStep(StepContext parent) {
        long id = parent.stepExecutionId().value();
        try {
            contexts.partitionedStep(id).flatMap(run -> run.listeners)
                    .ifPresent(listeners -> listeners.call(StepListener.class, "afterStep", StepListener::afterStep));
        } finally {
            contexts.partitionedStepEnded(id);
        }
    }

    /** The reducer's end: a failure of {@code beforePartitionedStepCompletion} rolls back, and fails the step. */
    private static void reduce(PartitionedStepRun.Artifact<PartitionReducer> reducer, boolean completed)
            throws Exception {
        if (completed) {
            try {
                call(reducer, PartitionReducer::beforePartitionedStepCompletion);
            } catch (Exception e) {
                call(reducer, PartitionReducer::rollbackPartitionedStep);
                call(reducer, r -> r.afterPartitionedStepCompletion(PartitionStatus.ROLLBACK));
                throw e;
            }
            call(reducer, r -> r.afterPartitionedStepCompletion(PartitionStatus.COMMIT));
        } else {
            call(reducer, PartitionReducer::rollbackPartitionedStep);
            call(reducer, r -> r.afterPartitionedStepCompletion(PartitionStatus.ROLLBACK));
        }
    }

    private <T> PartitionedStepRun.Artifact<T> resolve(PartitionedStepRun run, JslArtifact artifact, Class<T> type)
            throws Exception {
        CurrentArtifact current = new CurrentArtifact(artifact.location().toString(), run.jobContext, run.stepContext,
                run.stepScope.enter(artifact.properties()).properties());
        return new PartitionedStepRun.Artifact<>(jobs.artifacts().resolve(run.stepScope.resolve(artifact.ref()), type,
                current), current);
    }

    @FunctionalInterface
    private interface Call<T> {
        void on(T artifact) throws Exception;
    }

    private static <T> void call(PartitionedStepRun.Artifact<T> artifact, Call<T> call) throws Exception {
        artifact.current().call(() -> {
            call.on(artifact.resolved().get());
            return null;
        });
    }
}
