package io.durablebatch.schedule;

import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import io.durablebatch.execution.ParameterValue;
import io.durablebatch.operator.JobParameters;

/**
 * When a job runs by itself: a cron expression in the syntax of the Quarkus scheduler
 * ({@code quarkus.scheduler.cron-type}, Quartz by default), evaluated in a time zone. Each fire time
 * launches the job instance keyed by the schedule's identifying parameters plus the fire time
 * itself ({@value #FIRE_TIME_PARAMETER}, an identifying {@code Instant} the job can read), so a fire
 * runs once across every replica of the application.
 *
 * <pre>
 * Job.named("nightlyReport").schedule(Schedule.cron("0 0 2 * * ?").zone("Europe/Berlin"))
 * </pre>
 *
 * Declared in configuration ({@code quarkus.durable-batch.jobs."name".schedule.*}), a schedule
 * replaces the one the job declares.
 */
public record Schedule(String cron, Optional<ZoneId> zone, Map<String, String> parameters,
        Map<String, String> nonIdentifyingParameters, MisfirePolicy misfirePolicy, int misfireLimit,
        OverlapPolicy overlap, boolean enabled) {

    /** The identifying parameter that carries the scheduled fire time of the launch. */
    public static final String FIRE_TIME_PARAMETER = "scheduledFireTime";

    /** How many missed fires {@link MisfirePolicy#RUN_ALL} runs at most, by default. */
    public static final int DEFAULT_MISFIRE_LIMIT = 10;

    public Schedule {
        Objects.requireNonNull(cron, "cron");
        if (cron.isBlank()) {
            throw new IllegalArgumentException("a schedule's cron expression must not be blank");
        }
        Objects.requireNonNull(zone, "zone");
        parameters = Map.copyOf(parameters);
        nonIdentifyingParameters = Map.copyOf(nonIdentifyingParameters);
        if (parameters.containsKey(FIRE_TIME_PARAMETER) || nonIdentifyingParameters.containsKey(FIRE_TIME_PARAMETER)) {
            throw new IllegalArgumentException("parameter '" + FIRE_TIME_PARAMETER + "' is the schedule's own");
        }
        Objects.requireNonNull(misfirePolicy, "misfirePolicy");
        if (misfireLimit < 1) {
            throw new IllegalArgumentException("a schedule's misfire limit must be 1 or more, got " + misfireLimit);
        }
        Objects.requireNonNull(overlap, "overlap");
    }

    /**
     * A schedule firing at the times of {@code cron} in the JVM's time zone, missed fires run once
     * ({@link MisfirePolicy#RUN_LATEST}), overlapping fires skipped ({@link OverlapPolicy#SKIP}).
     */
    public static Schedule cron(String cron) {
        return new Schedule(cron, Optional.empty(), Map.of(), Map.of(), MisfirePolicy.RUN_LATEST, DEFAULT_MISFIRE_LIMIT,
                OverlapPolicy.SKIP, true);
    }

    /**
     * The scheduled fire time that launched an execution with these parameters: {@code
     * Schedule.fireTime(context.parameters())} in a step.
     *
     * @throws IllegalArgumentException if a schedule did not launch it
     */
    public static Instant fireTime(JobParameters parameters) {
        if (parameters.get(FIRE_TIME_PARAMETER).orElse(null) instanceof ParameterValue.OfInstant fireTime) {
            return fireTime.value();
        }
        throw new IllegalArgumentException("no schedule launched this execution: it has no Instant parameter '"
                + FIRE_TIME_PARAMETER + "'");
    }

    /** This schedule evaluated in {@code zone}, daylight-saving changes included. */
    public Schedule zone(String zone) {
        return new Schedule(cron, Optional.of(ZoneId.of(zone)), parameters, nonIdentifyingParameters, misfirePolicy,
                misfireLimit, overlap, enabled);
    }

    /** This schedule with one more identifying parameter for every fire. */
    public Schedule parameter(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(parameters);
        more.put(name, value);
        return new Schedule(cron, zone, more, nonIdentifyingParameters, misfirePolicy, misfireLimit, overlap, enabled);
    }

    /** This schedule with one more non-identifying parameter for every fire. */
    public Schedule nonIdentifyingParameter(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(nonIdentifyingParameters);
        more.put(name, value);
        return new Schedule(cron, zone, parameters, more, misfirePolicy, misfireLimit, overlap, enabled);
    }

    /** This schedule with another policy for fires missed while no replica ran. */
    public Schedule misfire(MisfirePolicy policy) {
        return new Schedule(cron, zone, parameters, nonIdentifyingParameters, policy, misfireLimit, overlap, enabled);
    }

    /** This schedule with another bound on the missed fires {@link MisfirePolicy#RUN_ALL} runs. */
    public Schedule misfireLimit(int limit) {
        return new Schedule(cron, zone, parameters, nonIdentifyingParameters, misfirePolicy, limit, overlap, enabled);
    }

    /** This schedule with another policy for a fire that comes while the previous one still runs. */
    public Schedule overlap(OverlapPolicy policy) {
        return new Schedule(cron, zone, parameters, nonIdentifyingParameters, misfirePolicy, misfireLimit, policy,
                enabled);
    }

    /** This schedule, declared but never firing when {@code enabled} is false. */
    public Schedule enabled(boolean enabled) {
        return new Schedule(cron, zone, parameters, nonIdentifyingParameters, misfirePolicy, misfireLimit, overlap,
                enabled);
    }
}
