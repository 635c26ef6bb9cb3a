package io.durablebatch.job;

import java.util.Optional;
import java.util.OptionalInt;

import io.durablebatch.Checks;
import io.durablebatch.context.StepContext;
import io.durablebatch.listener.BatchListener;
import io.durablebatch.listener.Listeners;

/**
 * A step whose work is split by a {@link Partitioner} into partitions, each run by a worker step
 * attempt (a tasklet or chunk step) that sees its partition in {@link StepContext#partition()}.
 * <p>
 * The plan is stored before any worker starts. Workers claim partitions through the repository,
 * {@code workers} at a time in this process; every process of the application that shares the
 * database can run workers of the plan too. The step ends with the aggregate of its partitions
 * (FAILED over STOPPED over COMPLETED, counters summed). A restart copies the plan: completed
 * partitions keep their result and never run again, the others resume from their worker's last
 * checkpoint; unless the partitioner's {@link Partitioner#partitioning} plans afresh. An
 * {@link #analyzer(PartitionAnalyzer)} follows the partitions on the step's thread.
 */
public final class PartitionedStep implements Step {

    private final StepSettings settings;
    private final Partitioner partitioner;
    private final Step worker;
    private final OptionalInt workers;
    private final Listeners listeners;
    private final Optional<PartitionAnalyzer> analyzer;

    PartitionedStep(StepSettings settings, Partitioner partitioner, Step worker, OptionalInt workers) {
        this(settings, partitioner, worker, workers, Listeners.NONE, Optional.empty());
    }

    private PartitionedStep(StepSettings settings, Partitioner partitioner, Step worker, OptionalInt workers,
            Listeners listeners, Optional<PartitionAnalyzer> analyzer) {
        this.listeners = listeners;
        this.analyzer = analyzer;
        this.settings = Checks.notNull(settings, "step.settings");
        this.partitioner = Checks.notNull(partitioner, "partitioner");
        this.worker = Checks.notNull(worker, "worker");
        if (worker instanceof PartitionedStep) {
            throw new IllegalArgumentException("the worker of partitioned step '" + settings.name()
                    + "' must be a tasklet or chunk step, not another partitioned step");
        }
        workers.ifPresent(n -> Checks.positive(n, "workers of step '" + settings.name() + "'"));
        this.workers = workers;
    }

    @Override
    public StepSettings settings() {
        return settings;
    }

    @Override
    public String kind() {
        return "partitioned:" + worker.kind();
    }

    public Partitioner partitioner() {
        return partitioner;
    }

    /** The step each partition runs; its name names the worker step executions. */
    public Step worker() {
        return worker;
    }

    /** Local worker threads; empty for {@code quarkus.durable-batch.partitions.local-workers}. */
    public OptionalInt workers() {
        return workers;
    }

    public PartitionedStep withWorkers(int workers) {
        return new PartitionedStep(settings, partitioner, worker, OptionalInt.of(workers), listeners, analyzer);
    }

    public PartitionedStep withId(String nodeId) {
        return new PartitionedStep(settings.withNodeId(nodeId), partitioner, worker, workers, listeners, analyzer);
    }

    @Override
    public PartitionedStep withStartLimit(int startLimit) {
        return new PartitionedStep(settings.withStartLimit(startLimit), partitioner, worker, workers, listeners, analyzer);
    }

    @Override
    public PartitionedStep withStartLimit(ParameterizedValue startLimit) {
        return new PartitionedStep(settings.withStartLimit(startLimit), partitioner, worker, workers, listeners, analyzer);
    }

    @Override
    public PartitionedStep withAllowStartIfComplete(boolean allowStartIfComplete) {
        return new PartitionedStep(settings.withAllowStartIfComplete(allowStartIfComplete), partitioner, worker, workers,
                listeners, analyzer);
    }

    @Override
    public PartitionedStep withAllowStartIfComplete(ParameterizedValue allowStartIfComplete) {
        return new PartitionedStep(settings.withAllowStartIfComplete(allowStartIfComplete), partitioner, worker, workers,
                listeners, analyzer);
    }

    /** The listeners declared on this step, in declaration order; not part of the plan. */
    public Listeners listeners() {
        return listeners;
    }

    /**
     * This step with a listener: its {@link io.durablebatch.listener.StepListener} side is called
     * around the parent step (the plan and the wait for its partitions), its
     * {@link io.durablebatch.listener.ChunkListener}, {@link io.durablebatch.listener.SkipListener}
     * and item listener sides for the chunks, skips and items of every partition's worker, before the
     * worker step's own.
     */
    public PartitionedStep listener(BatchListener listener) {
        return new PartitionedStep(settings, partitioner, worker, workers,
                listeners.with(listener, "partitioned step '" + settings.name() + "'", ChunkStep.LISTENED), analyzer);
    }

    /** The analyzer of this step's partitions; not part of the plan. */
    public Optional<PartitionAnalyzer> analyzer() {
        return analyzer;
    }

    /**
     * This step with an analyzer of its partitions, which their workers send data to with
     * {@link StepContext#collect}. The data travels in memory, so the partitions of a step with an
     * analyzer run on the workers of the parent's process only.
     */
    public PartitionedStep analyzer(PartitionAnalyzer analyzer) {
        Checks.notNull(analyzer, "analyzer");
        if (this.analyzer.isPresent()) {
            throw new IllegalArgumentException("partitioned step '" + settings.name() + "' has an analyzer already");
        }
        return new PartitionedStep(settings, partitioner, worker, workers, listeners, Optional.of(analyzer));
    }

    /** Whether only the parent's own process may run this step's partitions (it has an analyzer). */
    public boolean localWorkersOnly() {
        return analyzer.isPresent();
    }

    @Override
    public String toString() {
        return "PartitionedStep[" + settings.nodeId() + " of " + worker + "]";
    }
}
