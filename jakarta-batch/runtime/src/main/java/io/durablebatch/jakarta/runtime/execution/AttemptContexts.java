package io.durablebatch.jakarta.runtime.execution;

import java.io.Serializable;
import java.util.Optional;

import jakarta.batch.api.partition.PartitionCollector;
import jakarta.inject.Singleton;

import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.jakarta.runtime.JakartaJobs;
import io.durablebatch.jakarta.runtime.artifact.BatchArtifacts;
import io.durablebatch.jakarta.runtime.artifact.CurrentArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;

/**
 * What a step attempt's artifacts see of the job, the same for every step kind: the job's context
 * and the step's properties resolved for the execution. A partition's worker attempt gets the
 * specification's copies: a job context of its own, {@code #{partitionPlan[...]}} resolving to its
 * partition's properties, and the step execution id of the partitioned step (its worker step
 * executions are hidden from Jakarta). Its collector sends what it collects to the step's analyzer
 * ({@link #collect}).
 */
@Singleton
public class AttemptContexts {

    /**
     * The contexts of one attempt: the job's context (a partition's copy), the step's scope, the
     * step execution id its {@code StepContext} reports, and its partition, if it runs one.
     */
    record Attempt(JakartaJobContext jobContext, PropertyScope stepScope, long stepExecutionId,
            Optional<PartitionContext> partition) {
    }

    private final JakartaJobs jobs;
    private final ExecutionContexts contexts;
    private final PartitionPlans plans;

    AttemptContexts(JakartaJobs jobs, ExecutionContexts contexts, PartitionPlans plans) {
        this.jobs = jobs;
        this.contexts = contexts;
        this.plans = plans;
    }

    /** The contexts of the attempt {@code kernel} of {@code step}. */
    Attempt of(JslJob job, JslStep step, StepContext kernel) {
        JakartaJobContext jobContext = contexts.job(job, kernel.job());
        PropertyScope enclosing = jobContext.scope();
        long stepExecutionId = kernel.stepExecutionId().value();
        Optional<PartitionContext> partition = kernel.partition();
        if (partition.isPresent()) {
            jobContext = jobContext.forPartition();
            enclosing = enclosing.inPartition(plans.propertiesOf(step, partition.get(), enclosing));
            stepExecutionId = partition.get().parent().value();
        }
        return new Attempt(jobContext, enclosing.enter(step.properties()), stepExecutionId, partition);
    }

    /**
     * The partition's collector, if the step has one, resolved for this attempt: a chunk partition
     * calls the same one after each chunk.
     */
    Optional<Collector> collector(JslStep step, PropertyScope stepScope, JakartaStepContext stepContext)
            throws Exception {
        Optional<JslArtifact> collector = step.partition().orElseThrow().collector();
        if (collector.isEmpty()) {
            return Optional.empty();
        }
        CurrentArtifact current = new CurrentArtifact(collector.get().location().toString(), stepContext.jobContext(),
                stepContext, stepScope.enter(collector.get().properties()).properties());
        return Optional.of(new Collector(jobs.artifacts().resolve(stepScope.resolve(collector.get().ref()),
                PartitionCollector.class, current), current));
    }

    /** Calls the partition's collector once, if the step has one (a batchlet partition, at its end). */
    void collect(JslStep step, PropertyScope stepScope, JakartaStepContext stepContext, StepContext kernel)
            throws Exception {
        Optional<Collector> collector = collector(step, stepScope, stepContext);
        if (collector.isPresent()) {
            try (Collector resolved = collector.get()) {
                resolved.collect(kernel);
            }
        }
    }

    /** A partition's collector, resolved for one attempt; closing releases it. */
    static final class Collector implements AutoCloseable {
        private final BatchArtifacts.Resolved<PartitionCollector> resolved;
        private final CurrentArtifact current;

        private Collector(BatchArtifacts.Resolved<PartitionCollector> resolved, CurrentArtifact current) {
            this.resolved = resolved;
            this.current = current;
        }

        /** Calls {@code collectPartitionData()} and sends what it returns to the step's analyzer. */
        void collect(StepContext kernel) throws Exception {
            Serializable data = current.call(resolved.get()::collectPartitionData);
            kernel.collect(data);
        }

        @Override
        public void close() {
            resolved.close();
        }
    }
}
