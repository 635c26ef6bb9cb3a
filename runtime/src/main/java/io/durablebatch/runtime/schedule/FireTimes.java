package io.durablebatch.runtime.schedule;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;

/**
 * The fire times of one cron expression in one time zone, computed as the Quarkus scheduler
 * computes them (cron-utils, whole seconds): a fire time that does not exist on the day clocks
 * spring forward is skipped, one that exists twice when they fall back fires once.
 */
public final class FireTimes {

    private final String cron;
    private final ZoneId zone;
    private final ExecutionTime execution;

    private FireTimes(String cron, ZoneId zone, ExecutionTime execution) {
        this.cron = cron;
        this.zone = zone;
        this.execution = execution;
    }

    /**
     * @throws IllegalArgumentException if {@code cron} is no valid expression of {@code cronType}
     *         ({@code quarkus.scheduler.cron-type}: quartz, unix, cron4j, spring, spring53)
     */
    public static FireTimes parse(String cron, String cronType, ZoneId zone) {
        CronType type = CronType.valueOf(cronType.toUpperCase(Locale.ROOT));
        CronParser parser = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(type));
        return new FireTimes(cron, zone, ExecutionTime.forCron(parser.parse(cron).validate()));
    }

    public String cron() {
        return cron;
    }

    public ZoneId zone() {
        return zone;
    }

    /** The first fire time strictly after {@code after}. */
    public Optional<Instant> next(Instant after) {
        return execution.nextExecution(ZonedDateTime.ofInstant(after, zone)).map(ZonedDateTime::toInstant);
    }

    /** The next {@code count} fire times strictly after {@code after}. */
    public List<Instant> next(Instant after, int count) {
        List<Instant> times = new ArrayList<>(count);
        Optional<Instant> next = next(after);
        while (next.isPresent() && times.size() < count) {
            times.add(next.get());
            next = next(next.get());
        }
        return times;
    }

    /** The fire times in {@code (after, until]}: how many there are, and the latest {@code keep} of them. */
    public Gap between(Instant after, Instant until, int keep) {
        Deque<Instant> latest = new ArrayDeque<>(keep);
        long count = 0;
        Instant from = after.truncatedTo(ChronoUnit.SECONDS);
        Optional<Instant> next = next(from);
        while (next.isPresent() && !next.get().isAfter(until)) {
            if (next.get().isAfter(after)) {
                count++;
                if (latest.size() == keep) {
                    latest.removeFirst();
                }
                latest.addLast(next.get());
            }
            next = next(next.get());
        }
        return new Gap(count, List.copyOf(latest));
    }

    /** Fire times that passed: how many, and the latest ones kept, oldest first. */
    public record Gap(long count, List<Instant> latest) {

        public boolean isEmpty() {
            return count == 0;
        }
    }
}
