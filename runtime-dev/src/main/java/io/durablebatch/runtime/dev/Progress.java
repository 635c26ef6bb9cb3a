package io.durablebatch.runtime.dev;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import io.durablebatch.execution.StepExecution;

/**
 * How far a running chunk step is, where that can be computed: its reader knows the size of its
 * input ({@link io.durablebatch.item.ItemReader#size()}) and the step runs in this process (the size
 * is not recorded in the repository). {@code percent} is the items read (the durable counter, as of
 * the last committed chunk) over the size; {@code etaSeconds} is the items left over the rate since
 * the attempt started, so it assumes the rate stays what it was, and for a restarted step it counts
 * the whole input again, as the attempt's counters start from zero. {@code null} until the step
 * committed its first chunk. For the steps of an execution that run side by side (a partitioned
 * step's workers), {@link #combine} sums their sizes and items and takes the longest ETA.
 */
public record Progress(String step, long size, long read, double percent, Long etaSeconds) {

    /** The progress of {@code step}, a running attempt, or empty if its size is unknown here. */
    static Optional<Progress> of(StepExecution step, OptionalLong size, Instant now) {
        if (size.isEmpty() || step.startedAt().isEmpty()) {
            return Optional.empty();
        }
        long total = size.getAsLong();
        long read = step.counters().readCount();
        double percent = total == 0 ? 100 : Math.min(100, 100.0 * read / total);
        double seconds = Math.max(1e-3, Duration.between(step.startedAt().get(), now).toMillis() / 1000.0);
        double rate = read / seconds;
        Long eta = rate > 0 ? Math.round(Math.max(0, total - read) / rate) : null;
        return Optional.of(new Progress(step.stepName().value(), total, read, percent, eta));
    }

    /** The progress of steps running side by side, as one: sizes and items summed, the longest ETA. */
    static Progress combine(List<Progress> running) {
        if (running.size() == 1) {
            return running.get(0);
        }
        long size = running.stream().mapToLong(Progress::size).sum();
        long read = running.stream().mapToLong(Progress::read).sum();
        String steps = running.stream().map(Progress::step).distinct().collect(Collectors.joining(", "));
        Long eta = running.stream().map(Progress::etaSeconds).anyMatch(Objects::isNull) ? null
                : running.stream().mapToLong(Progress::etaSeconds).max().getAsLong();
        return new Progress(steps + " ×" + running.size(), size, read, size == 0 ? 100 : Math.min(100, 100.0 * read / size),
                eta);
    }
}
