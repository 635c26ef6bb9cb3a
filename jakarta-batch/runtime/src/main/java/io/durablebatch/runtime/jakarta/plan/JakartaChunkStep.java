package io.durablebatch.runtime.jakarta.plan;

import static io.durablebatch.runtime.jakarta.plan.JslPlans.literal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.Step;
import io.durablebatch.job.Steps;
import io.durablebatch.runtime.jakarta.execution.JslChunkListener;
import io.durablebatch.runtime.jakarta.execution.StepRuns;
import io.durablebatch.runtime.jakarta.jsl.JslChunk;
import io.durablebatch.runtime.jakarta.jsl.JslExceptionFilter;
import io.durablebatch.runtime.jakarta.jsl.JslJob;
import io.durablebatch.runtime.jakarta.jsl.JslProblem;
import io.durablebatch.runtime.jakarta.jsl.JslStep;
import io.durablebatch.runtime.jakarta.jsl.PropertyScope;
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
 * attempt starts: the kernel's plan leaves commit intervals out.
 * <p>
 * What the kernel cannot run yet is refused at start: skippable, retryable and no-rollback exception
 * classes, {@code skip-limit}, {@code retry-limit}, {@code checkpoint-policy="custom"} (or a
 * checkpoint algorithm) and a {@code time-limit}.
 */
final class JakartaChunkStep {

    /** Jakarta Batch's {@code item-count} default. */
    static final int DEFAULT_ITEM_COUNT = 10;

    private JakartaChunkStep() {
    }

    /** The kernel step of {@code chunk}, or empty with the reasons added to {@code problems}. */
    static Optional<Step> of(JslJob job, JslStep step, JslChunk chunk, PropertyScope properties,
            List<JslProblem> problems) {
        int before = problems.size();
        refuseUnsupported(chunk, properties, problems);
        Optional<Integer> itemCount = itemCount(chunk, properties, problems);
        if (problems.size() > before) {
            return Optional.empty();
        }
        ChunkStep.Builder<Object, Object> builder = Steps.chunk(step.id(), itemCount.orElse(DEFAULT_ITEM_COUNT))
                .reader(context -> runs().reader(context));
        if (itemCount.isEmpty()) {
            // an item-count an execution decides: the kernel's plan leaves commit intervals out
            builder = builder.commitInterval(context -> runs().itemCount(context));
        }
        if (chunk.processor().isPresent()) {
            builder = builder.attemptProcessor(context -> runs().processor(context));
        }
        return Optional.of(builder.writer(context -> runs().writer(context))
                .retry(0, Duration.ZERO, Duration.ZERO)
                .listener(new JslChunkListener(job, step))
                .build());
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

    private static void refuseUnsupported(JslChunk chunk, PropertyScope properties, List<JslProblem> problems) {
        refuseFilter(chunk, "skippable-exception-classes", chunk.skippable(), problems);
        refuseFilter(chunk, "retryable-exception-classes", chunk.retryable(), problems);
        refuseFilter(chunk, "no-rollback-exception-classes", chunk.noRollback(), problems);
        chunk.skipLimit().ifPresent(v -> problems.add(unsupported(chunk, "skip-limit")));
        chunk.retryLimit().ifPresent(v -> problems.add(unsupported(chunk, "retry-limit")));
        if (chunk.checkpointAlgorithm().isPresent()) {
            problems.add(unsupported(chunk, "<checkpoint-algorithm>"));
        }
        chunk.checkpointPolicy().flatMap(v -> literal(chunk.location(), "checkpoint-policy", v, properties, problems))
                .filter(policy -> !policy.trim().equals("item"))
                .ifPresent(policy -> problems.add(unsupported(chunk, "checkpoint-policy=\"" + policy + "\"")));
        chunk.timeLimit().flatMap(v -> literal(chunk.location(), "time-limit", v, properties, problems))
                .filter(limit -> !limit.trim().equals("0"))
                .ifPresent(limit -> problems.add(unsupported(chunk, "time-limit=\"" + limit + "\"")));
    }

    private static void refuseFilter(JslChunk chunk, String element, JslExceptionFilter filter,
            List<JslProblem> problems) {
        if (!filter.include().isEmpty() || !filter.exclude().isEmpty()) {
            problems.add(unsupported(chunk, "<" + element + ">"));
        }
    }

    private static JslProblem unsupported(JslChunk chunk, String what) {
        return new JslProblem(chunk.location(), what + " is not supported yet: this runtime runs chunks that "
                + "commit every item-count items and fail on any exception of their reader, processor or writer");
    }
}
