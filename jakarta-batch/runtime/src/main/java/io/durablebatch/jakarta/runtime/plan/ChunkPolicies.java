package io.durablebatch.jakarta.runtime.plan;

import static io.durablebatch.jakarta.runtime.plan.JslPlans.literal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import io.durablebatch.context.StepContext;
import io.durablebatch.jakarta.runtime.execution.StepRuns;
import io.durablebatch.jakarta.runtime.jsl.JslChunk;
import io.durablebatch.jakarta.runtime.jsl.JslProblem;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.ExceptionFilter;

/**
 * A {@code <chunk>}'s skip, retry and checkpoint policies as the kernel's: the exception class
 * filters, {@code skip-limit} and {@code retry-limit} (no limit when absent), and
 * {@code checkpoint-policy} ({@code item}: {@code item-count} and {@code time-limit} in seconds,
 * whichever comes first, 0 for none; {@code custom}: the {@code <checkpoint-algorithm>}, which the
 * kernel asks instead; a {@code <checkpoint-algorithm>} beside {@code item} is ignored, as the
 * specification says). The limits are tuning, not part of the kernel's plan: one an execution
 * decides ({@code #{jobParameters['skipLimit']}}) is resolved as each step attempt opens, as
 * {@code item-count} is. {@code checkpoint-policy} chooses how chunks end, so it is written out or
 * refers only to properties the job XML fixes.
 */
record ChunkPolicies(ExceptionFilter skippable, Limit skipLimit, ExceptionFilter retryable,
        ExceptionFilter noRollback, Limit retryLimit, Limit timeLimit, boolean custom) {

    /** A limit attribute: absent, written out ({@code fixed}), or resolved per step attempt. */
    record Limit(String attribute, Function<JslChunk, Optional<String>> of, Optional<Integer> fixed, boolean perAttempt) {

        static final Limit NONE = new Limit("", chunk -> Optional.empty(), Optional.empty(), false);

        /** The limit of one attempt of a step with {@code runs}: written out or resolved as it opens. */
        Optional<ToIntFunction<StepContext>> perAttempt(Supplier<StepRuns> runs) {
            return perAttempt ? Optional.of(context -> runs.get().chunkLimit(context, attribute, of)) : Optional.empty();
        }
    }

    /** The policies of {@code chunk}, or empty with the reasons added to {@code problems}. */
    static Optional<ChunkPolicies> of(JslChunk chunk, PropertyScope properties, List<JslProblem> problems) {
        int before = problems.size();
        Optional<ExceptionFilter> skippable = ExceptionFilters.of(chunk, "skippable-exception-classes",
                chunk.skippable(), problems);
        Optional<ExceptionFilter> retryable = ExceptionFilters.of(chunk, "retryable-exception-classes",
                chunk.retryable(), problems);
        Optional<ExceptionFilter> noRollback = ExceptionFilters.of(chunk, "no-rollback-exception-classes",
                chunk.noRollback(), problems);
        Limit skipLimit = limit(chunk, "skip-limit", JslChunk::skipLimit, properties, problems);
        Limit retryLimit = limit(chunk, "retry-limit", JslChunk::retryLimit, properties, problems);
        String policy = chunk.checkpointPolicy()
                .flatMap(v -> literal(chunk.location(), "checkpoint-policy", v, properties, problems)).map(String::trim)
                .orElse("item");
        boolean custom = false;
        Limit timeLimit = Limit.NONE;
        if (policy.equals("custom")) {
            custom = true;
            if (chunk.checkpointAlgorithm().isEmpty()) {
                problems.add(new JslProblem(chunk.location(),
                        "checkpoint-policy=\"custom\" needs a <checkpoint-algorithm ref=\"...\"/>"));
            }
        } else if (policy.equals("item")) {
            timeLimit = limit(chunk, "time-limit", JslChunk::timeLimit, properties, problems);
        } else {
            problems.add(new JslProblem(chunk.location(),
                    "checkpoint-policy=\"" + policy + "\" is neither \"item\" nor \"custom\""));
        }
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new ChunkPolicies(skippable.orElseThrow(), skipLimit, retryable.orElseThrow(),
                noRollback.orElseThrow(), retryLimit, timeLimit, custom));
    }

    /** {@code builder} with these policies; {@code runs} resolves each attempt's checkpoint algorithm and limits. */
    ChunkStep.Builder<Object, Object> applyTo(ChunkStep.Builder<Object, Object> builder, Supplier<StepRuns> runs) {
        // the builder's setters return the builder itself
        builder.skippable(skippable);
        skipLimit.fixed().ifPresent(builder::skipLimit);
        skipLimit.perAttempt(runs).ifPresent(builder::skipLimit);
        // no-rollback classes matter only for the exceptions that are retried
        if (!retryable.isEmpty()) {
            builder.retryable(retryable).noRollback(noRollback);
        }
        retryLimit.fixed().ifPresent(builder::retryLimit);
        retryLimit.perAttempt(runs).ifPresent(builder::retryLimit);
        // 0 seconds is no time limit, written out or resolved
        timeLimit.fixed().filter(seconds -> seconds > 0).map(Duration::ofSeconds).ifPresent(builder::timeLimit);
        timeLimit.perAttempt(runs).map(ChunkPolicies::seconds).ifPresent(builder::timeLimit);
        if (custom) {
            builder.checkpointAlgorithm(context -> runs.get().checkpointAlgorithm(context));
        }
        return builder;
    }

    private static Function<StepContext, Duration> seconds(ToIntFunction<StepContext> seconds) {
        return context -> Duration.ofSeconds(seconds.applyAsInt(context));
    }

    private static Limit limit(JslChunk chunk, String attribute, Function<JslChunk, Optional<String>> of,
            PropertyScope properties, List<JslProblem> problems) {
        Optional<String> value = of.apply(chunk);
        if (value.isEmpty()) {
            return Limit.NONE;
        }
        Optional<String> fixed;
        try {
            fixed = properties.resolveFixed(value.get());
        } catch (IllegalArgumentException e) {
            problems.add(new JslProblem(chunk.location(), attribute + "=\"" + value.get() + "\": " + e.getMessage()));
            return Limit.NONE;
        }
        if (fixed.isEmpty()) {
            // an execution decides it: resolved as each attempt opens (StepRuns#chunkLimit)
            return new Limit(attribute, of, Optional.empty(), true);
        }
        try {
            int limit = Integer.parseInt(fixed.get().trim());
            if (limit >= 0) {
                return new Limit(attribute, of, Optional.of(limit), false);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(new JslProblem(chunk.location(), attribute + "=\"" + fixed.get() + "\" is no number of 0 or more"));
        return Limit.NONE;
    }
}
