package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.durablebatch.schedule.ScheduleState;

/** A job's schedule as the API shows it: its declaration, its shared state and its next fire times. */
public record ScheduleView(String job, String cron, String timeZone, Map<String, String> parameters,
        Map<String, String> nonIdentifyingParameters, String misfirePolicy, int misfireLimit, String overlap,
        boolean enabled, boolean paused, Optional<String> pausedBy, List<Instant> nextFireTimes,
        Optional<Instant> lastFireTime, Optional<String> lastOutcome, Optional<Long> lastExecution) {

    static ScheduleView of(ScheduleState state) {
        var schedule = state.schedule();
        return new ScheduleView(state.job(), schedule.cron(),
                schedule.zone().map(Object::toString).orElse(java.time.ZoneId.systemDefault().getId()),
                schedule.parameters(), schedule.nonIdentifyingParameters(), schedule.misfirePolicy().name(),
                schedule.misfireLimit(), schedule.overlap().name(), schedule.enabled(), state.paused(), state.pausedBy(),
                state.nextFireTimes(), state.lastFireTime(), state.lastOutcome().map(Enum::name), state.lastExecution());
    }
}
