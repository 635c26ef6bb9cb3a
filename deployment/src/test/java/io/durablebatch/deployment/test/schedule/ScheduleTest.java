package io.durablebatch.deployment.test.schedule;

import static io.durablebatch.deployment.test.SimpleMeters.count;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.SimpleMeters;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.runtime.schedule.ScheduledJobs;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.durablebatch.schedule.FireOutcome;
import io.durablebatch.schedule.MisfirePolicy;
import io.durablebatch.schedule.OverlapPolicy;
import io.durablebatch.schedule.Schedule;
import io.durablebatch.schedule.ScheduleState;
import io.durablebatch.schedule.Schedules;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A schedule fires its job once per fire time, whatever the number of replicas firing it; fires
 * missed while no replica ran follow the misfire policy, once; a paused schedule skips its fires;
 * a fire that comes while the previous one runs follows the overlap policy.
 */
class ScheduleTest {

    /** Job names of this run: schedule rows outlive a test run in the shared database. */
    static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    static final String EVERY_SECOND = "everySecond-" + RUN;
    static final String REPLICAS = "replicas-" + RUN;
    static final String SKIP = "misfireSkip-" + RUN;
    static final String LATEST = "misfireLatest-" + RUN;
    static final String ALL = "misfireAll-" + RUN;
    static final String OVERLAP_SKIP = "overlapSkip-" + RUN;
    static final String OVERLAP_ALLOW = "overlapAllow-" + RUN;
    static final String WAIT_LAUNCH = "overlapWaitLaunch-" + RUN;
    static final String WAIT_SKIP = "overlapWaitSkip-" + RUN;
    static final String PAUSED = "pausedAcrossStarts-" + RUN;

    /** The fire times each job's executions read from their parameters, by job. */
    static final Map<String, Set<Instant>> RAN = new ConcurrentHashMap<>();
    static final CountDownLatch RELEASE = new CountDownLatch(1);
    /** Blocks the overlap-wait jobs' executions, each its own: the other tests release theirs at any time. */
    static final Map<String, CountDownLatch> HELD = Map.of(WAIT_LAUNCH, new CountDownLatch(1), WAIT_SKIP,
            new CountDownLatch(1));
    /** When each fire of the overlap-wait jobs started running, by job and fire time. */
    static final Map<String, Instant> STARTED = new ConcurrentHashMap<>();

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(Jobs.class, SimpleMeters.class)
            .overrideConfigKey("quarkus.micrometer.binder-enabled-default", "false")
            .overrideConfigKey("quarkus.durable-batch.executor.max-concurrency", "8");

    @Singleton
    static class Jobs {

        private static JobDefinition job(String name, Schedule schedule, boolean blocks) {
            return Job.named(name).schedule(schedule).start(tasklet("run", context -> {
                RAN.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet()).add(Schedule.fireTime(context.parameters()));
                if (blocks) {
                    RELEASE.await(30, TimeUnit.SECONDS);
                }
                return RepeatStatus.FINISHED;
            })).build();
        }

        /** Runs until the test releases it. */
        private static JobDefinition held(String name, Schedule schedule) {
            return Job.named(name).schedule(schedule).start(tasklet("run", context -> {
                Instant fireTime = Schedule.fireTime(context.parameters());
                STARTED.put(name + "@" + fireTime, Instant.now());
                RAN.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet()).add(fireTime);
                HELD.get(name).await(30, TimeUnit.SECONDS);
                return RepeatStatus.FINISHED;
            })).build();
        }

        @Produces
        JobDefinition overlapWaitLaunch() {
            return held(WAIT_LAUNCH, Schedule.cron("0/2 * * * * ?").overlap(OverlapPolicy.WAIT).enabled(false));
        }

        @Produces
        JobDefinition overlapWaitSkip() {
            return held(WAIT_SKIP, Schedule.cron("0/2 * * * * ?").overlap(OverlapPolicy.WAIT).enabled(false));
        }

        @Produces
        JobDefinition pausedAcrossStarts() {
            return job(PAUSED, Schedule.cron("0/2 * * * * ?").misfire(MisfirePolicy.RUN_ALL).enabled(false), false);
        }

        @Produces
        JobDefinition everySecond() {
            return job(EVERY_SECOND, Schedule.cron("* * * * * ?").parameter("region", "eu"), false);
        }

        /** Fired by hand, as replicas would: never by the scheduler. */
        @Produces
        JobDefinition replicas() {
            return job(REPLICAS, Schedule.cron("0/2 * * * * ?").enabled(false), false);
        }

        @Produces
        JobDefinition misfireSkip() {
            return job(SKIP, Schedule.cron("0/2 * * * * ?").misfire(MisfirePolicy.SKIP).enabled(false), false);
        }

        @Produces
        JobDefinition misfireLatest() {
            return job(LATEST, Schedule.cron("0/2 * * * * ?").misfire(MisfirePolicy.RUN_LATEST).enabled(false), false);
        }

        @Produces
        JobDefinition misfireAll() {
            return job(ALL, Schedule.cron("0/2 * * * * ?").misfire(MisfirePolicy.RUN_ALL).misfireLimit(3)
                    .enabled(false), false);
        }

        @Produces
        JobDefinition overlapSkip() {
            return job(OVERLAP_SKIP, Schedule.cron("0/2 * * * * ?").enabled(false), true);
        }

        @Produces
        JobDefinition overlapAllow() {
            return job(OVERLAP_ALLOW, Schedule.cron("0/2 * * * * ?").overlap(OverlapPolicy.ALLOW).enabled(false), true);
        }
    }

    @Inject
    ScheduledJobs scheduled;

    @Inject
    Schedules schedules;

    @Inject
    SimpleMeterRegistry meters;

    @Inject
    JobRepository repository;

    @Inject
    @RepositoryDataSource
    AgroalDataSource dataSource;

    @Test
    void everyFireTimeRunsOnceWithItsFireTimeAsParameter() throws Exception {
        Thread.sleep(4_500);
        Map<Instant, Long> executions = executionsByFireTime(EVERY_SECOND);
        assertTrue(executions.size() >= 3, "fired every second: " + executions);
        executions.forEach((fireTime, n) -> assertEquals(1L, n, "one execution for " + fireTime));
        for (Instant fireTime : executions.keySet()) {
            assertEquals(fireTime.truncatedTo(ChronoUnit.SECONDS), fireTime, "a whole second of the cron");
        }
        ScheduleState state = schedules.get(EVERY_SECOND).orElseThrow();
        assertTrue(state.lastExecution().isPresent());
        assertEquals(5, state.nextFireTimes().size());
        assertTrue(count(meters, "durable.batch.schedule.fires", "job", EVERY_SECOND) >= 3);
    }

    @Test
    void replicasFiringTheSameTimeLaunchOneExecution() throws Exception {
        Instant fireTime = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        int replicas = 6;
        CyclicBarrier together = new CyclicBarrier(replicas);
        ExecutorService threads = Executors.newFixedThreadPool(replicas);
        List<Future<?>> fires = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            fires.add(threads.submit(() -> {
                together.await();
                scheduled.fire(REPLICAS, fireTime);
                return null;
            }));
        }
        for (Future<?> fire : fires) {
            fire.get(30, TimeUnit.SECONDS);
        }
        threads.shutdown();
        // and a replica that fires it late, after the others recorded it
        scheduled.fire(REPLICAS, fireTime);
        assertEquals(Map.of(fireTime, 1L), executionsByFireTime(REPLICAS));
        assertEquals(1, count(meters, "durable.batch.schedule.fires", "job", REPLICAS), "counted once");
        assertEquals(FireOutcome.LAUNCHED, schedules.get(REPLICAS).orElseThrow().lastOutcome().orElseThrow());
    }

    @Test
    void missedFiresAreSkippedByTheSkipPolicy() throws Exception {
        Instant down = rewind(SKIP);
        scheduled.catchUp(SKIP, down.plusSeconds(10));
        scheduled.catchUp(SKIP, down.plusSeconds(10));
        assertEquals(Map.of(), executionsByFireTime(SKIP));
        assertEquals(List.of("MISFIRE: missed 5 fire(s) after " + down + " up to " + down.plusSeconds(10)
                + " while no replica ran; misfire policy SKIP: launched 0, skipped 5"), events(SKIP));
        assertEquals(5, count(meters, "durable.batch.schedule.misfires", "job", SKIP));
        assertEquals(5, count(meters, "durable.batch.schedule.skipped", "job", SKIP, "reason", "MISSED_SKIPPED"));
        assertEquals(FireOutcome.MISSED_SKIPPED, schedules.get(SKIP).orElseThrow().lastOutcome().orElseThrow());
    }

    @Test
    void theLatestMissedFireRunsOnceByTheRunLatestPolicy() throws Exception {
        Instant down = rewind(LATEST);
        scheduled.catchUp(LATEST, down.plusSeconds(10));
        scheduled.catchUp(LATEST, down.plusSeconds(10));
        assertEquals(Map.of(down.plusSeconds(10), 1L), executionsByFireTime(LATEST));
        assertEquals(1, events(LATEST).size());
        assertEquals(5, count(meters, "durable.batch.schedule.misfires", "job", LATEST));
        assertEquals(4, count(meters, "durable.batch.schedule.skipped", "job", LATEST, "reason", "MISSED_SKIPPED"));
    }

    @Test
    void eachMissedFireUpToTheLimitRunsByTheRunAllPolicy() throws Exception {
        Instant down = rewind(ALL);
        scheduled.catchUp(ALL, down.plusSeconds(10));
        // the same gap seen by a second replica starting, and again: nothing runs twice
        scheduled.catchUp(ALL, down.plusSeconds(10));
        assertEquals(Map.of(down.plusSeconds(6), 1L, down.plusSeconds(8), 1L, down.plusSeconds(10), 1L),
                executionsByFireTime(ALL));
        assertEquals(1, events(ALL).size(), events(ALL).toString());
    }

    @Test
    void aPausedScheduleSkipsItsFiresAndPausingIsIdempotent() throws Exception {
        String job = REPLICAS;
        OperatorCall call = OperatorCall.of("pause-" + RUN, "alice");
        ScheduleState paused = schedules.pause(job, call);
        assertTrue(paused.paused());
        assertEquals("alice", paused.pausedBy().orElseThrow());
        assertEquals(List.of(), paused.nextFireTimes());
        schedules.pause(job, call);
        Instant fireTime = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(100);
        scheduled.fire(job, fireTime);
        assertFalse(executionsByFireTime(job).containsKey(fireTime));
        assertEquals(FireOutcome.SKIPPED_PAUSED, schedules.get(job).orElseThrow().lastOutcome().orElseThrow());

        ScheduleState resumed = schedules.resume(job, OperatorCall.of("resume-" + RUN, "alice"));
        assertFalse(resumed.paused());
        scheduled.fire(job, fireTime.plusSeconds(2));
        assertEquals(1L, executionsByFireTime(job).get(fireTime.plusSeconds(2)));
        List<String> events = events(job);
        assertEquals(1, events.stream().filter(e -> e.startsWith("PAUSE")).count(), "a retried pause is one: " + events);
        assertTrue(events.contains("RESUME: resumed"), events.toString());
    }

    @Test
    void aFireWhileThePreviousOneRunsIsSkippedOrAllowedByItsOverlapPolicy() throws Exception {
        Instant first = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(200);
        scheduled.fire(OVERLAP_SKIP, first);
        scheduled.fire(OVERLAP_ALLOW, first);
        awaitRunning(OVERLAP_SKIP, first);
        awaitRunning(OVERLAP_ALLOW, first);
        scheduled.fire(OVERLAP_SKIP, first.plusSeconds(2));
        scheduled.fire(OVERLAP_ALLOW, first.plusSeconds(2));
        RELEASE.countDown();
        assertEquals(Set.of(first), executionsByFireTime(OVERLAP_SKIP).keySet());
        assertEquals(FireOutcome.SKIPPED_OVERLAP, schedules.get(OVERLAP_SKIP).orElseThrow().lastOutcome().orElseThrow());
        assertEquals(1, count(meters, "durable.batch.schedule.skipped", "job", OVERLAP_SKIP, "reason", "SKIPPED_OVERLAP"));
        assertEquals(Set.of(first, first.plusSeconds(2)), executionsByFireTime(OVERLAP_ALLOW).keySet());
    }

    @Test
    void aFireWhileThePreviousOneRunsWaitsForItByTheWaitPolicy() throws Exception {
        // fire times well ahead: the waiting fire's next fire time is minutes away
        Instant first = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(300);
        scheduled.fire(WAIT_LAUNCH, first);
        awaitRunning(WAIT_LAUNCH, first);
        ExecutorService replica = Executors.newSingleThreadExecutor();
        try {
            Future<?> waiting = replica.submit(() -> scheduled.fire(WAIT_LAUNCH, first.plusSeconds(2)));
            Thread.sleep(1_500);
            assertFalse(waiting.isDone(), "the fire waits for the previous execution");
            assertEquals(Set.of(first), executionsByFireTime(WAIT_LAUNCH).keySet(), "nothing launched while it runs");
            Instant released = Instant.now();
            HELD.get(WAIT_LAUNCH).countDown();
            waiting.get(30, TimeUnit.SECONDS);
            awaitRunning(WAIT_LAUNCH, first.plusSeconds(2));
            assertEquals(Map.of(first, 1L, first.plusSeconds(2), 1L), executionsByFireTime(WAIT_LAUNCH));
            assertFalse(STARTED.get(WAIT_LAUNCH + "@" + first.plusSeconds(2)).isBefore(released),
                    "launched after the previous execution ended");
            assertEquals(FireOutcome.LAUNCHED, schedules.get(WAIT_LAUNCH).orElseThrow().lastOutcome().orElseThrow());
        } finally {
            replica.shutdownNow();
        }
    }

    @Test
    void aWaitingFireIsSkippedWhenThePreviousOneOutlastsTheNextFireTime() throws Exception {
        // the next even second at least 2 s ahead: the second fire's own next fire time is 4 to 6 s away
        Instant now = Instant.now();
        Instant first = now.truncatedTo(ChronoUnit.SECONDS).plusSeconds(now.getEpochSecond() % 2 == 0 ? 2 : 3);
        try {
            scheduled.fire(WAIT_SKIP, first);
            awaitRunning(WAIT_SKIP, first);
            long started = System.nanoTime();
            scheduled.fire(WAIT_SKIP, first.plusSeconds(2));
            assertTrue(System.nanoTime() - started >= TimeUnit.SECONDS.toNanos(1), "it waited until the next fire time");
            assertEquals(Set.of(first), executionsByFireTime(WAIT_SKIP).keySet());
            assertEquals(FireOutcome.SKIPPED_OVERLAP, schedules.get(WAIT_SKIP).orElseThrow().lastOutcome().orElseThrow());
            assertEquals(1, count(meters, "durable.batch.schedule.skipped", "job", WAIT_SKIP, "reason", "SKIPPED_OVERLAP"));
            assertTrue(events(WAIT_SKIP).stream().anyMatch(e -> e.startsWith("SKIP: SKIPPED_OVERLAP")), events(WAIT_SKIP)
                    .toString());
        } finally {
            HELD.get(WAIT_SKIP).countDown();
        }
    }

    /**
     * The paused state is the repository's, not the process's: a pause written by another process (a
     * replica, or this application before a restart) is honoured by the fires and by the catch-up a
     * start makes, which then launches none of the fires missed while paused.
     */
    @Test
    void aPauseInTheRepositoryHoldsAcrossStarts() throws Exception {
        schedules.pause(PAUSED, OperatorCall.of("pause-restart-" + RUN, "alice"));
        assertEquals(List.of(true), sql("SELECT paused FROM dbatch_schedule WHERE job_name = ?", PAUSED));
        // a start after every replica was down for ten fire times, the schedule paused
        Instant down = rewind(PAUSED);
        scheduled.catchUp(PAUSED, down.plusSeconds(20));
        assertEquals(Map.of(), executionsByFireTime(PAUSED), "nothing caught up while paused");
        assertEquals(FireOutcome.SKIPPED_PAUSED, schedules.get(PAUSED).orElseThrow().lastOutcome().orElseThrow());
        assertTrue(events(PAUSED).get(0).startsWith("MISFIRE: missed 10 fire(s)"), events(PAUSED).toString());

        // resumed and paused again by another process, straight on the row: this one's fires follow the row
        sql("UPDATE dbatch_schedule SET paused = false, paused_by = NULL WHERE job_name = ? RETURNING paused", PAUSED);
        Instant fireTime = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(400);
        scheduled.fire(PAUSED, fireTime);
        assertEquals(Map.of(fireTime, 1L), executionsByFireTime(PAUSED));
        sql("UPDATE dbatch_schedule SET paused = true, paused_by = 'bob' WHERE job_name = ? RETURNING paused", PAUSED);
        assertEquals("bob", schedules.get(PAUSED).orElseThrow().pausedBy().orElseThrow());
        scheduled.fire(PAUSED, fireTime.plusSeconds(2));
        assertEquals(Map.of(fireTime, 1L), executionsByFireTime(PAUSED));
        assertEquals(FireOutcome.SKIPPED_PAUSED, schedules.get(PAUSED).orElseThrow().lastOutcome().orElseThrow());
    }

    private List<Object> sql(String statement, String job) throws SQLException {
        List<Object> values = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement(statement)) {
            query.setString(1, job);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getObject(1));
                }
            }
        }
        return values;
    }

    private void awaitRunning(String job, Instant fireTime) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!RAN.getOrDefault(job, Set.of()).contains(fireTime)) {
            assertTrue(System.nanoTime() < deadline, job + " did not start");
            Thread.sleep(20);
        }
    }

    /** Moves the job's last recorded fire a whole number of even seconds back, as if every replica had been down. */
    private Instant rewind(String job) throws SQLException {
        Instant down = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection.prepareStatement(
                        "UPDATE dbatch_schedule SET last_fire_time = ? WHERE job_name = ?")) {
            update.setTimestamp(1, Timestamp.from(down));
            update.setString(2, job);
            assertEquals(1, update.executeUpdate());
        }
        return down;
    }

    private List<String> events(String job) {
        return scheduled.events(job, 100).stream().map(e -> e.action() + ": " + e.detail())
                .map(detail -> detail.replaceAll(" \\[[0-9, ]+]", "")).toList();
    }

    /** How many executions each fire time of the job has, as the repository stores them. */
    private Map<Instant, Long> executionsByFireTime(String job) throws SQLException {
        Map<Instant, Long> executions = new TreeMap<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement("""
                        SELECT e.id, i.id FROM dbatch_job_execution e JOIN dbatch_job_instance i ON i.id = e.job_instance_id
                        WHERE i.job_name = ?""")) {
            query.setString(1, job);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    long instance = rows.getLong(2);
                    Instant fireTime = RepositoryTestSupport.tx(() -> Schedule.fireTime(io.durablebatch.operator.JobParameters
                            .of(repository.getJobInstance(new JobInstanceId(instance)).orElseThrow().key())));
                    executions.merge(fireTime, 1L, Long::sum);
                }
            }
        }
        return executions;
    }
}
