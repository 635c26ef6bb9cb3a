package io.durablebatch.runtime.jakarta.plan;

import static io.durablebatch.runtime.jakarta.plan.JslPlans.literal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

import io.durablebatch.job.CheckpointAlgorithm;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.ExceptionFilter;
import io.durablebatch.job.StepContext;
import io.durablebatch.runtime.jakarta.jsl.JslChunk;
import io.durablebatch.runtime.jakarta.jsl.JslProblem;
import io.durablebatch.runtime.jakarta.jsl.PropertyScope;

/**
 * A {@code <chunk>}'s skip, retry and checkpoint policies as the kernel's: the exception class
 * filters, {@code skip-limit} and {@code retry-limit} (no limit when absent), and
 * {@code checkpoint-policy} ({@code item}: {@code item-count} and {@code time-limit} in seconds,
 * whichever comes first, 0 for none; {@code custom}: the {@code <checkpoint-algorithm>}, which the
 * kernel asks instead; a {@code <checkpoint-algorithm>} beside {@code item} is ignored, as the
 * specification says). The attributes are part of the plan, so they are written out or refer only
 * to properties the job XML fixes, as {@code item-count} does.
 */
record ChunkPolicies(ExceptionFilter skippable, OptionalInt skipLimit, ExceptionFilter retryable,
        ExceptionFilter noRollback, OptionalInt retryLimit, Optional<Duration> timeLimit, boolean custom) {

    /** The policies of {@code chunk}, or empty with the reasons added to {@code problems}. */
    static Optional<ChunkPolicies> of(JslChunk chunk, PropertyScope properties, List<JslProblem> problems) {
        int before = problems.size();
        Optional<ExceptionFilter> skippable = ExceptionFilters.of(chunk, "skippable-exception-classes",
                chunk.skippable(), problems);
        Optional<ExceptionFilter> retryable = ExceptionFilters.of(chunk, "retryable-exception-classes",
                chunk.retryable(), problems);
        Optional<ExceptionFilter> noRollback = ExceptionFilters.of(chunk, "no-rollback-exception-classes",
                chunk.noRollback(), problems);
        OptionalInt skipLimit = limit(chunk, "skip-limit", chunk.skipLimit(), properties, problems);
        OptionalInt retryLimit = limit(chunk, "retry-limit", chunk.retryLimit(), properties, problems);
        String policy = chunk.checkpointPolicy()
                .flatMap(v -> literal(chunk.location(), "checkpoint-policy", v, properties, problems)).map(String::trim)
                .orElse("item");
        boolean custom = false;
        Optional<Duration> timeLimit = Optional.empty();
        if (policy.equals("custom")) {
            custom = true;
            if (chunk.checkpointAlgorithm().isEmpty()) {
                problems.add(new JslProblem(chunk.location(),
                        "checkpoint-policy=\"custom\" needs a <checkpoint-algorithm ref=\"...\"/>"));
            }
        } else if (policy.equals("item")) {
            OptionalInt seconds = limit(chunk, "time-limit", chunk.timeLimit(), properties, problems);
            if (seconds.isPresent() && seconds.getAsInt() > 0) {
                timeLimit = Optional.of(Duration.ofSeconds(seconds.getAsInt()));
            }
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

    /** {@code builder} with these policies; {@code algorithm} gives each attempt its checkpoint algorithm. */
    ChunkStep.Builder<Object, Object> applyTo(ChunkStep.Builder<Object, Object> builder,
            Function<StepContext, ? extends CheckpointAlgorithm> algorithm) {
        builder = builder.skippable(skippable);
        skipLimit.ifPresent(builder::skipLimit);
        // no-rollback classes matter only for the exceptions that are retried
        if (!retryable.isEmpty()) {
            builder = builder.retryable(retryable).noRollback(noRollback);
        }
        retryLimit.ifPresent(builder::retryLimit);
        timeLimit.ifPresent(builder::timeLimit);
        if (custom) {
            builder = builder.checkpointAlgorithm(algorithm);
        }
        return builder;
    }

    private static OptionalInt limit(JslChunk chunk, String attribute, Optional<String> value, PropertyScope properties,
            List<JslProblem> problems) {
        if (value.isEmpty()) {
            return OptionalInt.empty();
        }
        Optional<String> written = literal(chunk.location(), attribute, value.get(), properties, problems);
        if (written.isEmpty()) {
            return OptionalInt.empty();
        }
        try {
            int limit = Integer.parseInt(written.get().trim());
            if (limit >= 0) {
                return OptionalInt.of(limit);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(new JslProblem(chunk.location(), attribute + "=\"" + written.get() + "\" is no number of 0 or more"));
        return OptionalInt.empty();
    }
}
