package io.durablebatch.runtime.dev;

import java.time.Instant;
import java.util.List;

import io.durablebatch.schedule.ScheduleState;

/** A job's schedule on the Dev UI card: its cron, time zone, policies, state and next fire times. */
public record ScheduleView(String job, String cron, String timeZone, String misfirePolicy, String overlap,
        boolean enabled, boolean paused, String pausedBy, List<String> nextFireTimes, String lastFireTime,
        String lastOutcome, Long lastExecution) {

    static ScheduleView of(ScheduleState state) {
        var schedule = state.schedule();
        return new ScheduleView(state.job(), schedule.cron(),
                schedule.zone().map(Object::toString).orElse(java.time.ZoneId.systemDefault().getId()),
                schedule.misfirePolicy().name(), schedule.overlap().name(), schedule.enabled(), state.paused(),
                state.pausedBy().orElse(null), state.nextFireTimes().stream().map(Instant::toString).toList(),
                state.lastFireTime().map(Instant::toString).orElse(null), state.lastOutcome().map(Enum::name).orElse(null),
                state.lastExecution().orElse(null));
    }
}
