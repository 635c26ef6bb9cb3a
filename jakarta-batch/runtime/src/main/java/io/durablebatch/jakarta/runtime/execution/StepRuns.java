package io.durablebatch.jakarta.runtime.execution;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import jakarta.batch.api.listener.StepListener;
import jakarta.inject.Singleton;

import io.durablebatch.context.StepContext;
import io.durablebatch.jakarta.runtime.JakartaJobs;
import io.durablebatch.jakarta.runtime.jsl.JslChunk;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;
import io.durablebatch.listener.StepEvent;

/**
 * The JSL step attempts running in this process ({@link StepRun}), by step execution id and by
 * thread: a step attempt runs its listeners and its chunks on one thread, and the kernel's item
 * callbacks carry no context to find it by.
 */
@Singleton
public class StepRuns {

    private static final ThreadLocal<StepRun> CURRENT = new ThreadLocal<>();

    private final JakartaJobs jobs;
    private final AttemptContexts attemptContexts;
    private final Map<Long, StepRun> running = new ConcurrentHashMap<>();

    StepRuns(JakartaJobs jobs, AttemptContexts attemptContexts) {
        this.jobs = jobs;
        this.attemptContexts = attemptContexts;
    }

    /**
     * The kernel's {@code beforeStep}: the attempt's contexts, its listeners resolved and their
     * {@code beforeStep} called; one that throws fails the step before its work opens.
     */
    void begin(JslJob job, JslStep step, StepEvent event) {
        StepContext kernel = event.context();
        // a partition's worker attempt has its own contexts and its partition's properties
        AttemptContexts.Attempt attempt = attemptContexts.of(job, step, kernel);
        PropertyScope scope = attempt.stepScope();
        // the persistent user data of the checkpoint this attempt resumes is there from its first callback on
        JakartaStepContext context = step.work().orElse(null) instanceof JslChunk
                ? new ChunkStepContext(step.id(), attempt.stepExecutionId(), kernel, scope.properties(),
                        attempt.jobContext(), PersistentUserData.of(event.execution().checkpoint()))
                : new JakartaStepContext(step.id(), attempt.stepExecutionId(), scope.properties(), attempt.jobContext(),
                        PersistentUserData.of(kernel.checkpoint()));
        StepRun run = new StepRun(job, step, scope, context, kernel);
        running.put(kernel.stepExecutionId().value(), run);
        CURRENT.set(run);
        try {
            run.resolveListeners(jobs.artifacts());
            if (attempt.partition().isPresent()) {
                run.collector(attemptContexts.collector(step, scope, context));
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the listeners of " + run.where() + " cannot be created: " + e, e);
        }
        if (attempt.partition().isEmpty()) {
            // a partitioned step's StepListeners are called around the step, not in its partitions
            run.call(StepListener.class, "beforeStep", StepListener::beforeStep);
        }
    }

    /**
     * The kernel's {@code afterStep}, once the step's end is recorded: the listeners'
     * {@code afterStep}, in document order, then they are released.
     */
    void end(StepEvent event) {
        StepRun run = running.remove(event.context().stepExecutionId().value());
        CURRENT.remove();
        if (run == null) {
            return;
        }
        try {
            if (run.context() instanceof ChunkStepContext chunk) {
                chunk.committed(event.execution().counters());
            }
            if (!run.inPartition()) {
                run.call(StepListener.class, "afterStep", StepListener::afterStep);
            }
        } finally {
            run.close();
        }
    }

    /** The attempt of this step execution, if it runs here. */
    Optional<StepRun> find(long stepExecutionId) {
        return Optional.ofNullable(running.get(stepExecutionId));
    }

    /** The attempt of this step execution. */
    StepRun require(StepContext kernel) {
        return find(kernel.stepExecutionId().value()).orElseThrow(() -> new IllegalStateException(
                "step execution " + kernel.stepExecutionId() + " of step " + kernel.stepName() + " was not begun"));
    }

    /** The attempt whose chunk runs on this thread. */
    static StepRun current() {
        StepRun run = CURRENT.get();
        if (run == null) {
            throw new IllegalStateException("no JSL step attempt runs on this thread");
        }
        return run;
    }

    /** The kernel's reader of a chunk step's attempt: resolves its reader, processor and writer. */
    public io.durablebatch.item.ItemReader<Object> reader(StepContext kernel) {
        StepRun run = require(kernel);
        try {
            run.chunk(ChunkRun.resolve(run, (JslChunk) run.step().work().orElseThrow(), jobs.artifacts()));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the reader, processor or writer of " + run.where() + " cannot be created: "
                    + e, e);
        }
        return run.chunk().reader();
    }

    /** The kernel's processor of a chunk step's attempt, created after its reader. */
    public io.durablebatch.item.ItemProcessor<Object, Object> processor(StepContext kernel) {
        return require(kernel).chunk().processor().orElseThrow();
    }

    /** The kernel's checkpoint algorithm of a chunk step's attempt, created after its reader. */
    public io.durablebatch.job.CheckpointAlgorithm checkpointAlgorithm(StepContext kernel) {
        return require(kernel).chunk().checkpointAlgorithm();
    }

    /** The kernel's writer of a chunk step's attempt, created after its reader. */
    public io.durablebatch.item.ItemWriter<Object> writer(StepContext kernel) {
        return require(kernel).chunk().writer();
    }

    /**
     * The {@code item-count} of a chunk step's attempt, as its execution resolves it.
     *
     * @throws IllegalArgumentException naming the attribute if it resolves to no number of 1 or more
     */
    public int itemCount(StepContext kernel) {
        StepRun run = require(kernel);
        JslChunk chunk = (JslChunk) run.step().work().orElseThrow();
        String written = chunk.itemCount().orElseThrow();
        String resolved = run.scope().resolve(written);
        return JslChunk.itemCountOf(resolved).orElseThrow(() -> new IllegalArgumentException("item-count=\""
                + written + "\" of " + run.where() + " resolves to \"" + resolved + "\", no number of 1 or more"));
    }

    /**
     * A limit of a chunk step's attempt ({@code skip-limit}, {@code retry-limit}, {@code time-limit}),
     * as its execution resolves the value {@code attributeOf} reads from the {@code <chunk>}.
     *
     * @throws IllegalArgumentException naming the attribute if it resolves to no number of 0 or more
     */
    public int chunkLimit(StepContext kernel, String attribute, Function<JslChunk, Optional<String>> attributeOf) {
        StepRun run = require(kernel);
        String written = attributeOf.apply((JslChunk) run.step().work().orElseThrow()).orElseThrow();
        String resolved = run.scope().resolve(written);
        try {
            int limit = Integer.parseInt(resolved.strip());
            if (limit >= 0) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(attribute + "=\"" + written + "\" of " + run.where() + " resolves to \""
                + resolved + "\", no number of 0 or more");
    }
}
