package io.durablebatch.schedule;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A schedule as the repository and the cron expression see it now.
 *
 * @param job the scheduled job
 * @param schedule its declaration, as this application runs it
 * @param paused whether an operator paused it (a state every replica shares, kept across restarts)
 * @param pausedBy who paused it, while it is paused
 * @param nextFireTimes its next fire times, the nearest first
 * @param lastFireTime the latest fire time the schedule handled, launched or not
 * @param lastOutcome what became of that fire
 * @param lastExecution the execution the latest launched fire started
 */
public record ScheduleState(String job, Schedule schedule, boolean paused, Optional<String> pausedBy,
        List<Instant> nextFireTimes, Optional<Instant> lastFireTime, Optional<FireOutcome> lastOutcome,
        Optional<Long> lastExecution) {

    public ScheduleState {
        nextFireTimes = List.copyOf(nextFireTimes);
    }
}
