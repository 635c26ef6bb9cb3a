package io.durablebatch.runtime.schedule;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.DurableBatchConfig.ScheduleSettings;
import io.durablebatch.runtime.job.JobRegistry;
import io.durablebatch.runtime.metrics.KernelMetrics;
import io.durablebatch.schedule.FireOutcome;
import io.durablebatch.schedule.MisfirePolicy;
import io.durablebatch.schedule.OverlapPolicy;
import io.durablebatch.schedule.Schedule;
import io.durablebatch.schedule.ScheduleState;
import io.durablebatch.schedule.Schedules;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;

/**
 * Fires the application's schedules on the Quarkus scheduler. Every replica evaluates every
 * schedule; a fire launches the job instance keyed by its fire time, under an operation id derived
 * from it, so the replicas that fire the same time all get the one execution the first of them
 * launched. The schedule's row then records the fire, and the next start finds from it the fire
 * times that passed while no replica ran.
 */
@ApplicationScoped
public class ScheduledJobs implements Schedules {

    /** The actor of every launch, skip and misfire decision a schedule makes. */
    public static final ActorRef ACTOR = ActorRef.of("system:schedule");

    /** How many next fire times a schedule's state lists. */
    static final int NEXT_FIRES = 5;

    private static final Logger LOG = Logger.getLogger("io.durablebatch.schedule");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_.:/@-]{1,120}");

    private final JobRegistry registry;
    private final JobOperator operator;
    private final JobRepository repository;
    private final ScheduleStore store;
    private final DurableBatchConfig config;
    private final Instance<Scheduler> scheduler;
    private final KernelMetrics metrics;
    private volatile Map<String, Declared> declared = Map.of();

    /** A schedule as this application runs it, and where it was declared (for messages). */
    record Declared(String job, Schedule schedule, FireTimes times, String property) {
    }

    ScheduledJobs(JobRegistry registry, JobOperator operator, JobRepository repository, ScheduleStore store,
            DurableBatchConfig config, Instance<Scheduler> scheduler, Instance<KernelMetrics> metrics) {
        this.registry = registry;
        this.operator = operator;
        this.repository = repository;
        this.store = store;
        this.config = config;
        this.scheduler = scheduler;
        this.metrics = KernelMetrics.of(metrics);
    }

    /** After the kernel registered the job definitions (runtime init), before the application serves. */
    void onStart(@Observes @Priority(Interceptor.Priority.LIBRARY_AFTER) StartupEvent event) {
        declared = declare(registry.definitions(), config, cronType());
        if (declared.isEmpty()) {
            return;
        }
        Instant registered = Instant.now();
        transaction(() -> {
            declared.values().forEach(d -> store.register(d.job(), registered));
            return null;
        });
        if (!scheduler.isResolvable() || !scheduler.get().isStarted()) {
            LOG.warnf("The Quarkus scheduler is not running (quarkus.scheduler.enabled=false?): the schedules of %s "
                    + "do not fire in this process", declared.keySet());
            return;
        }
        for (Declared d : declared.values()) {
            if (d.schedule().enabled()) {
                scheduler.get().newJob("durable-batch:" + d.job()).setCron(d.schedule().cron())
                        .setTimeZone(d.times().zone().getId())
                        .setConcurrentExecution(Scheduled.ConcurrentExecution.PROCEED)
                        .setTask(execution -> fire(d, execution.getScheduledFireTime())).schedule();
                LOG.infof("Job '%s' scheduled: %s in %s, next at %s", d.job(), d.schedule().cron(), d.times().zone(),
                        d.times().next(registered).map(Instant::toString).orElse("never"));
            }
        }
        // the Quarkus scheduler fires the times after the second it started at: the earlier ones
        // since the last recorded fire passed while no replica ran (or this one was starting)
        Instant startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        for (Declared d : declared.values()) {
            if (d.schedule().enabled()) {
                try {
                    catchUp(d, startedAt);
                } catch (RuntimeException e) {
                    LOG.errorf(e, "Job '%s': catching up the missed fires of its schedule failed; the next start "
                            + "of a replica catches them up", d.job());
                }
            }
        }
    }

    /** The schedules the definitions and the configuration declare, checked. */
    static Map<String, Declared> declare(Iterable<JobDefinition> definitions, DurableBatchConfig config,
            String cronType) {
        Map<String, JobDefinition> byName = new LinkedHashMap<>();
        definitions.forEach(d -> byName.put(d.name().value(), d));
        for (Map.Entry<String, DurableBatchConfig.JobSettings> entry : config.jobs().entrySet()) {
            if (!byName.containsKey(entry.getKey()) && entry.getValue().schedule().cron().isPresent()) {
                String property = property(entry.getKey(), "cron");
                throw new ConfigurationException(property + " schedules job '" + entry.getKey()
                        + "', which this application does not define (defined: " + byName.keySet() + ")",
                        Set.of(property));
            }
        }
        Map<String, Declared> result = new TreeMap<>();
        for (JobDefinition definition : byName.values()) {
            String job = definition.name().value();
            Optional<ScheduleSettings> settings = Optional.ofNullable(config.jobs().get(job))
                    .map(DurableBatchConfig.JobSettings::schedule);
            Optional<Schedule> schedule;
            String property;
            if (settings.flatMap(ScheduleSettings::cron).isPresent()) {
                schedule = Optional.of(configured(job, settings.get()));
                property = property(job, "cron");
            } else {
                schedule = definition.schedule();
                property = "the schedule of job '" + job + "' (Job.named(\"" + job + "\").schedule(..))";
            }
            if (schedule.isEmpty()) {
                continue;
            }
            Schedule effective = settings.isPresent() && !settings.get().enabled() ? schedule.get().enabled(false)
                    : schedule.get();
            ZoneId zone = effective.zone().orElse(ZoneId.systemDefault());
            result.put(job, new Declared(job, effective, fireTimes(job, effective.cron(), cronType, zone, property),
                    property));
        }
        return Map.copyOf(result);
    }

    /** The fire times of {@code cron}, or a configuration error naming where it was declared. */
    public static FireTimes fireTimes(String job, String cron, String cronType, ZoneId zone, String property) {
        try {
            return FireTimes.parse(cron, cronType, zone);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(property + ": invalid cron expression '" + cron + "' of job '" + job
                    + "' for quarkus.scheduler.cron-type=" + cronType + ": " + e.getMessage(), Set.of(property));
        }
    }

    private static Schedule configured(String job, ScheduleSettings settings) {
        Schedule schedule = Schedule.cron(settings.cron().orElseThrow()).misfire(settings.misfirePolicy())
                .overlap(settings.overlap());
        try {
            schedule = schedule.misfireLimit(settings.misfireLimit());
        } catch (IllegalArgumentException e) {
            String property = property(job, "misfire-limit");
            throw new ConfigurationException(property + ": " + e.getMessage(), Set.of(property));
        }
        if (settings.timeZone().isPresent()) {
            try {
                schedule = schedule.zone(settings.timeZone().get());
            } catch (DateTimeException e) {
                String property = property(job, "time-zone");
                throw new ConfigurationException(property + ": no time zone '" + settings.timeZone().get() + "': "
                        + e.getMessage(), Set.of(property));
            }
        }
        for (Map.Entry<String, String> parameter : settings.parameters().entrySet()) {
            schedule = schedule.parameter(parameter.getKey(), parameter.getValue());
        }
        for (Map.Entry<String, String> parameter : settings.nonIdentifyingParameters().entrySet()) {
            schedule = schedule.nonIdentifyingParameter(parameter.getKey(), parameter.getValue());
        }
        return schedule;
    }

    /** The name of a schedule's configuration property. */
    public static String property(String job, String name) {
        return "quarkus.durable-batch.jobs.\"" + job + "\".schedule." + name;
    }

    static String cronType() {
        return ConfigProvider.getConfig().getOptionalValue("quarkus.scheduler.cron-type", String.class).orElse("quartz");
    }

    /**
     * One fire of {@code d} at {@code fireTime}, on a scheduler thread of one replica. A replica that
     * finds the fire already decided does nothing; the others launch (all getting the same execution)
     * or skip it, and the first to record it counts it.
     */
    void fire(Declared d, Instant fireTime) {
        try {
            ScheduleStore.Row row = transaction(() -> store.row(d.job())).orElseThrow();
            if (!row.lastFireTime().isBefore(fireTime)) {
                return;
            }
            if (row.paused()) {
                skip(d, fireTime, FireOutcome.SKIPPED_PAUSED, "the schedule is paused by " + row.pausedBy().orElse("?"));
                return;
            }
            Optional<JobExecution> previous = row.lastExecution().filter(id -> d.schedule().overlap() != OverlapPolicy.ALLOW)
                    .flatMap(id -> transaction(() -> repository.getJobExecution(new JobExecutionId(id))))
                    .filter(execution -> execution.status().isActive());
            if (previous.isPresent()) {
                if (d.schedule().overlap() == OverlapPolicy.SKIP || !endsBeforeNextFire(d, fireTime, previous.get())) {
                    skip(d, fireTime, FireOutcome.SKIPPED_OVERLAP, "execution " + previous.get().id()
                            + " of the previous fire still runs (overlap " + d.schedule().overlap() + ")");
                    return;
                }
            }
            JobExecutionId launched = launch(d, fireTime);
            if (transaction(() -> store.recordLaunch(d.job(), fireTime, launched.value(), Instant.now())).isPresent()) {
                metrics.scheduleFired(d.job());
                LOG.infof("Job '%s' fired for %s: execution %s", d.job(), fireTime, launched);
            }
        } catch (RuntimeException e) {
            LOG.errorf(e, "Job '%s': the fire of %s failed in this replica; another replica's fire of the same time, "
                    + "or the next start, launches it", d.job(), fireTime);
        }
    }

    /**
     * Fires the job's schedule for {@code fireTime} as the Quarkus scheduler of this replica would:
     * for tests, and for a replica whose checker thread stalled across a fire time.
     */
    public void fire(String job, Instant fireTime) {
        fire(declared(job), fireTime);
    }

    /** Decides the fire times of the job's schedule that passed until {@code until}, as a start does. */
    public void catchUp(String job, Instant until) {
        catchUp(declared(job), until);
    }

    private Declared declared(String job) {
        Declared d = declared.get(job);
        if (d == null) {
            throw new IllegalArgumentException("job '" + job + "' has no schedule (scheduled: " + declared.keySet() + ")");
        }
        return d;
    }

    private boolean endsBeforeNextFire(Declared d, Instant fireTime, JobExecution previous) {
        Instant next = d.times().next(fireTime).orElse(fireTime.plus(Duration.ofHours(1)));
        Duration left = Duration.between(Instant.now(), next);
        if (left.isNegative() || left.isZero()) {
            return false;
        }
        try {
            operator.await(previous.id(), left);
            return true;
        } catch (IllegalStateException stillActive) {
            return false;
        }
    }

    private void skip(Declared d, Instant fireTime, FireOutcome outcome, String why) {
        boolean decided = transaction(() -> {
            Instant now = Instant.now();
            boolean claimed = store.claimSkip(d.job(), fireTime, outcome, now).isPresent();
            if (claimed) {
                store.append(d.job(), "SKIP", operationId("skip", d.job(), fireTime), ACTOR, Optional.of(fireTime),
                        outcome + ": " + why, now);
            }
            return claimed;
        });
        if (decided) {
            metrics.scheduleSkipped(d.job(), outcome.name(), 1);
            LOG.infof("Job '%s': the fire of %s is skipped: %s", d.job(), fireTime, why);
        }
    }

    /** Launches the instance of the fire, or learns the execution an earlier launch of it started. */
    private JobExecutionId launch(Declared d, Instant fireTime) {
        JobParameters parameters = JobParameters.of(new LinkedHashMap<>(d.schedule().parameters()))
                .with(Schedule.FIRE_TIME_PARAMETER, fireTime);
        for (Map.Entry<String, String> parameter : d.schedule().nonIdentifyingParameters().entrySet()) {
            parameters = parameters.withNonIdentifying(parameter.getKey(), parameter.getValue());
        }
        return operator.start(d.job(), parameters,
                new OperatorCall(operationId("fire", d.job(), fireTime), ACTOR));
    }

    /**
     * The fire times that passed between the last recorded fire and {@code startedAt}, decided by the
     * misfire policy. Each launch is idempotent (its operation id is the fire's); the decision is
     * recorded by a compare-and-set on the last fire time, so one replica audits it.
     */
    void catchUp(Declared d, Instant startedAt) {
        MisfirePolicy policy = d.schedule().misfirePolicy();
        for (int attempt = 0; attempt < 5; attempt++) {
            ScheduleStore.Row row = transaction(() -> store.row(d.job())).orElseThrow();
            FireTimes.Gap gap = d.times().between(row.lastFireTime(), startedAt,
                    policy == MisfirePolicy.RUN_ALL ? d.schedule().misfireLimit() : 1);
            if (gap.isEmpty()) {
                return;
            }
            Instant latest = gap.latest().get(gap.latest().size() - 1);
            List<Instant> run = row.paused() ? List.of() : switch (policy) {
                case SKIP -> List.of();
                case RUN_LATEST -> List.of(latest);
                case RUN_ALL -> gap.latest();
            };
            List<JobExecutionId> launched = new ArrayList<>();
            for (Instant fireTime : run) {
                launched.add(launch(d, fireTime));
            }
            long skipped = gap.count() - run.size();
            FireOutcome outcome = !run.isEmpty() ? FireOutcome.MISSED_LAUNCHED
                    : row.paused() ? FireOutcome.SKIPPED_PAUSED : FireOutcome.MISSED_SKIPPED;
            String detail = "missed " + gap.count() + " fire(s) after " + row.lastFireTime() + " up to " + latest
                    + " while no replica ran; misfire policy " + policy + (row.paused() ? " (paused)" : "") + ": launched "
                    + run.size() + (launched.isEmpty() ? "" : " " + launched) + ", skipped " + skipped;
            Optional<Long> lastExecution = launched.isEmpty() ? Optional.empty()
                    : Optional.of(launched.get(launched.size() - 1).value());
            boolean decided = transaction(() -> {
                Instant now = Instant.now();
                boolean moved = store.catchUp(d.job(), row.lastFireTime(), latest, outcome, lastExecution, now)
                        .isPresent();
                if (moved) {
                    store.append(d.job(), "MISFIRE", operationId("misfire", d.job(), latest), ACTOR,
                            Optional.of(latest), detail, now);
                }
                return moved;
            });
            if (decided) {
                metrics.scheduleMisfired(d.job(), gap.count());
                if (skipped > 0) {
                    metrics.scheduleSkipped(d.job(), FireOutcome.MISSED_SKIPPED.name(), skipped);
                }
                run.forEach(fireTime -> metrics.scheduleFired(d.job()));
                LOG.warnf("Job '%s': %s", d.job(), detail);
                return;
            }
        }
    }

    /**
     * The operation id of a schedule's decision about one fire time: the same in every replica, so
     * that their launches of one fire are one operation.
     */
    static OperationId operationId(String kind, String job, Instant fireTime) {
        String name = TOKEN.matcher(job).matches() ? job : sha256(job);
        return OperationId.of("schedule:" + kind + ":" + fireTime.getEpochSecond() + ":" + name);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public List<ScheduleState> list() {
        return declared.keySet().stream().map(job -> get(job).orElseThrow()).toList();
    }

    @Override
    public Optional<ScheduleState> get(String job) {
        Declared d = declared.get(job);
        if (d == null) {
            return Optional.empty();
        }
        Optional<ScheduleStore.Row> row = transaction(() -> store.row(job));
        List<Instant> next = d.schedule().enabled() && !row.map(ScheduleStore.Row::paused).orElse(false)
                ? d.times().next(Instant.now(), NEXT_FIRES)
                : List.of();
        return Optional.of(new ScheduleState(job, d.schedule(), row.map(ScheduleStore.Row::paused).orElse(false),
                row.flatMap(ScheduleStore.Row::pausedBy), next, row.map(ScheduleStore.Row::lastFireTime),
                row.flatMap(ScheduleStore.Row::lastOutcome), row.flatMap(ScheduleStore.Row::lastExecution)));
    }

    @Override
    public ScheduleState pause(String job, OperatorCall call) {
        return setPaused(job, true, call);
    }

    @Override
    public ScheduleState resume(String job, OperatorCall call) {
        return setPaused(job, false, call);
    }

    private ScheduleState setPaused(String job, boolean paused, OperatorCall call) {
        declared(job);
        transaction(() -> {
            Instant now = Instant.now();
            ScheduleStore.Row row = store.row(job).orElseThrow();
            String detail = paused == row.paused() ? (paused ? "already paused" : "already running")
                    : (paused ? "paused" : "resumed");
            String action = paused ? "PAUSE" : "RESUME";
            // a retried request (same actor and operation id) finds its record and changes nothing
            if (!store.append(job, action, call.operationId(), call.actor(), Optional.empty(), detail, now)) {
                String recorded = store.event(action, call.actor(), call.operationId()).map(ScheduleStore.Event::job)
                        .orElse(job);
                if (!recorded.equals(job)) {
                    throw new RepositoryException(RepositoryError.OPERATION_CONFLICT, "operation id "
                            + call.operationId() + " was used for a " + action + " of the schedule of job '" + recorded
                            + "'");
                }
                return null;
            }
            if (paused != row.paused()) {
                store.setPaused(job, paused ? Optional.of(call.actor()) : Optional.empty(), now);
                LOG.infof("Job '%s': schedule %s by %s", job, detail, call.actor());
            }
            return null;
        });
        return get(job).orElseThrow();
    }

    /** The audited decisions about the job's schedule, newest first. */
    public List<ScheduleStore.Event> events(String job, int limit) {
        return transaction(() -> store.events(job, limit));
    }

    private static <T> T transaction(Supplier<T> work) {
        return QuarkusTransaction.requiringNew().call(work::get);
    }
}
