package io.durablebatch.jakarta.runtime.plan;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.durablebatch.jakarta.runtime.execution.JslChunkListener;
import io.durablebatch.jakarta.runtime.execution.StepRuns;
import io.durablebatch.jakarta.runtime.jsl.JslChunk;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslProblem;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.Step;
import io.durablebatch.job.Steps;
import io.quarkus.arc.Arc;

/**
 * A JSL {@code <chunk>} as a kernel {@link ChunkStep}: {@code item-count} (default 10) is its commit
 * interval, and its reader, processor and writer are resolved per step attempt
 * ({@link StepRuns#reader}). The reader's and writer's {@code checkpointInfo()} and the step's
 * persistent user data are the kernel's checkpoint, which a restart resumes. A transient database
 * failure fails the step, as any exception of a step without retryable exceptions does in Jakarta
 * Batch (the kernel's own chunk retry is off: it would process the items again without telling the
 * artifacts).
 * An {@code item-count} an execution decides ({@code #{jobParameters['size']}}) is resolved as each
 * attempt starts: the kernel's plan leaves commit intervals out (and chunk limits, {@link ChunkPolicies}).
 * <p>
 * Its skip, retry and checkpoint policies are the kernel's ({@link ChunkPolicies}).
 */
final class JakartaChunkStep {

    /** Jakarta Batch's {@code item-count} default. */
    static final int DEFAULT_ITEM_COUNT = 10;

    private JakartaChunkStep() {
    }

    /**
     * The kernel step of {@code chunk}, named {@code name} (the step's id, or its partitions' worker
     * name), or empty with the reasons added to {@code problems}.
     */
    static Optional<Step> of(JslJob job, JslStep step, JslChunk chunk, String name, PropertyScope properties,
            List<JslProblem> problems) {
        int before = problems.size();
        Optional<Integer> itemCount = itemCount(chunk, properties, problems);
        Optional<ChunkPolicies> policies = ChunkPolicies.of(chunk, properties, problems);
        if (problems.size() > before || policies.isEmpty()) {
            return Optional.empty();
        }
        ChunkStep.Builder<Object, Object> builder = Steps.chunk(name, itemCount.orElse(DEFAULT_ITEM_COUNT))
                .reader(context -> runs().reader(context));
        if (itemCount.isEmpty()) {
            // an item-count an execution decides: the kernel's plan leaves commit intervals out
            builder = builder.commitInterval(context -> runs().itemCount(context));
        }
        if (chunk.processor().isPresent()) {
            builder = builder.attemptProcessor(context -> runs().processor(context));
        }
        builder = builder.writer(context -> runs().writer(context))
                .retry(0, Duration.ZERO, Duration.ZERO)
                // Jakarta skips a failed writeItems whole: its writer must not see the items again
                .writeSkips(ChunkStep.WriteSkips.WHOLE_WRITE)
                .listener(JslChunkListener.of(job, step));
        return Optional.of(policies.get().applyTo(builder, JakartaChunkStep::runs).build());
    }

    private static StepRuns runs() {
        return Arc.container().instance(StepRuns.class).get();
    }

    /**
     * The item-count the job XML fixes (the default when absent), or empty when each execution
     * resolves it ({@link StepRuns#itemCount}).
     */
    private static Optional<Integer> itemCount(JslChunk chunk, PropertyScope properties, List<JslProblem> problems) {
        if (chunk.itemCount().isEmpty()) {
            return Optional.of(DEFAULT_ITEM_COUNT);
        }
        Optional<String> fixed;
        try {
            fixed = properties.resolveFixed(chunk.itemCount().get());
        } catch (IllegalArgumentException e) {
            problems.add(new JslProblem(chunk.location(), "item-count=\"" + chunk.itemCount().get() + "\": " + e.getMessage()));
            return Optional.empty();
        }
        if (fixed.isPresent() && JslChunk.itemCountOf(fixed.get()).isEmpty()) {
            problems.add(new JslProblem(chunk.location(), "item-count=\"" + fixed.get() + "\" is no number of 1 or more"));
        }
        return fixed.flatMap(JslChunk::itemCountOf);
    }
}
