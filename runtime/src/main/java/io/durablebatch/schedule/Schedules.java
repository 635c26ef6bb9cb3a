package io.durablebatch.schedule;

import java.util.List;
import java.util.Optional;

import io.durablebatch.operator.OperatorCall;

/**
 * The schedules of this application's jobs, and their operation. Pausing and resuming are durable
 * (every replica honours them, restarts included), audited, and idempotent per operation id.
 */
public interface Schedules {

    /** Every schedule of the application, by job name. */
    List<ScheduleState> list();

    /** The schedule of this job, if it has one. */
    Optional<ScheduleState> get(String job);

    /**
     * Stops the schedule from launching its job until it is resumed; a fire time that passes while it
     * is paused is skipped, never caught up. Pausing a paused schedule changes nothing.
     *
     * @throws IllegalArgumentException if the job has no schedule
     */
    ScheduleState pause(String job, OperatorCall call);

    /**
     * Lets the schedule launch its job again from its next fire time on. Resuming a running schedule
     * changes nothing.
     *
     * @throws IllegalArgumentException if the job has no schedule
     */
    ScheduleState resume(String job, OperatorCall call);
}
