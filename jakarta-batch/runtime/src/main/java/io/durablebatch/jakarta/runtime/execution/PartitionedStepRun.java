package io.durablebatch.jakarta.runtime.execution;

import java.util.Map;
import java.util.Optional;

import jakarta.batch.api.partition.PartitionAnalyzer;
import jakarta.batch.api.partition.PartitionReducer;

import io.durablebatch.jakarta.runtime.artifact.BatchArtifacts;
import io.durablebatch.jakarta.runtime.artifact.CurrentArtifact;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;

/**
 * One attempt of a partitioned JSL step on its own thread: the {@code StepContext} its mapper,
 * analyzer, reducer and step listeners share (the step's exit status is set there), and those
 * artifacts, resolved once per attempt. Kept by {@link ExecutionContexts} from the plan to the end of the partitions.
 */
final class PartitionedStepRun implements AutoCloseable {

    /** An artifact resolved for the attempt, with what its calls run with. */
    record Artifact<T>(BatchArtifacts.Resolved<T> resolved, CurrentArtifact current) {
    }

    final long executionId;
    final JakartaJobContext jobContext;
    final JakartaStepContext stepContext;
    final PropertyScope stepScope;
    Optional<Artifact<PartitionReducer>> reducer = Optional.empty();
    Optional<Artifact<PartitionAnalyzer>> analyzer = Optional.empty();
    /** The step's {@code <listeners>}, of which the {@code StepListener}s are called here. */
    Optional<StepRun> listeners = Optional.empty();
    /** The properties the mapper gave each partition in this attempt, by partition number. */
    volatile Map<Integer, Map<String, String>> mapped = Map.of();

    PartitionedStepRun(long executionId, JakartaJobContext jobContext, JakartaStepContext stepContext,
            PropertyScope stepScope) {
        this.executionId = executionId;
        this.jobContext = jobContext;
        this.stepContext = stepContext;
        this.stepScope = stepScope;
    }

    @Override
    public void close() {
        reducer.ifPresent(a -> a.resolved().close());
        analyzer.ifPresent(a -> a.resolved().close());
        listeners.ifPresent(StepRun::close);
    }
}
