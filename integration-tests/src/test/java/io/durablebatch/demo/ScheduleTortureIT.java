package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * Three nodes on one database fire a schedule every 2 s: every fire time gets exactly one completed
 * execution, none is missed; a node killed 150 ms before a fire time loses nothing (the others fire
 * it); all nodes down for 10 s, the next start runs each missed fire ({@code run-all}), once. The
 * run lasts 20 s as the build runs it, 60 s with {@code -Dtorture=full} (the figures in operating.adoc).
 */
class ScheduleTortureIT {

    static final String DATABASE = "torture_schedule";
    /** 60 s with {@code -Dtorture=full}, 20 s as the build runs the torture tests ({@code ci}). */
    static final long SECONDS = "full".equals(System.getProperty("torture")) ? 60 : 20;

    @Test
    void everyFireRunsOnceAcrossThreeNodesAKilledNodeAndAnOutage() throws Exception {
        DemoDatabase database = Torture.sharedDatabase(DATABASE);
        List<ChildApplication> nodes = new ArrayList<>();
        int started = 0;
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(start(database, ++started));
            }
            Instant running = Instant.now();
            Thread.sleep(SECONDS * 500);
            // kill a node 150 ms before an even second, the schedule's next fire time
            long toFire = 2000 - Instant.now().toEpochMilli() % 2000;
            Thread.sleep(toFire > 150 ? toFire - 150 : toFire + 1850);
            ChildApplication killed = nodes.remove(0);
            killed.kill();
            Instant killedAt = Instant.now();
            nodes.add(start(database, ++started));
            long left = SECONDS * 1000 - (Instant.now().toEpochMilli() - running.toEpochMilli());
            Thread.sleep(Math.max(2000, left));

            for (ChildApplication node : nodes) {
                node.kill();
            }
            nodes.clear();
            Instant down = Instant.now();
            Thread.sleep(10_000);
            nodes.add(start(database, ++started));
            Thread.sleep(6_000);
            for (ChildApplication node : nodes) {
                node.kill();
            }
            nodes.clear();

            Map<Instant, Integer> ticks = ticks(database);
            Instant first = ticks.keySet().iterator().next();
            Instant last = lastFireTime(database);
            List<Instant> missed = new ArrayList<>();
            long fires = 0;
            for (Instant t = first; !t.isAfter(last); t = t.plusSeconds(2)) {
                fires++;
                if (!ticks.containsKey(t)) {
                    missed.add(t);
                }
            }
            long duplicates = ticks.values().stream().filter(n -> n > 1).count();
            long executions = database.count("""
                    SELECT count(*) FROM dbatch_job_execution e JOIN dbatch_job_instance i ON i.id = e.job_instance_id
                    WHERE i.job_name = 'tick'""");
            long instances = database.count("SELECT count(*) FROM dbatch_job_instance WHERE job_name = 'tick'");
            String misfire = String.valueOf(database.row("""
                    SELECT detail FROM dbatch_schedule_event WHERE job_name = 'tick' AND action = 'MISFIRE'
                    ORDER BY id DESC LIMIT 1""").get(0));
            String figures = "fires " + fires + " (" + first + " to " + last + "), completed " + ticks.size()
                    + ", instances " + instances + ", executions " + executions + ", duplicates " + duplicates
                    + ", missed " + missed + "; node killed at " + killedAt + ", all down at " + down + "; " + misfire;
            System.out.println("Schedule torture: " + figures);
            assertEquals(List.of(), missed, figures);
            assertEquals(0, duplicates, figures);
            assertEquals(fires, ticks.size(), figures);
            assertEquals(fires, instances, figures);
            assertTrue(misfire.contains("misfire policy RUN_ALL") && misfire.contains("skipped 0"), figures);
            assertTrue(down.isBefore(last), "the outage's fires were caught up: " + figures);
        } finally {
            for (ChildApplication node : nodes) {
                node.close();
            }
        }
    }

    private static ChildApplication start(DemoDatabase database, int n) throws Exception {
        return ChildApplication.start("schedule/node-" + n, ChildApplication.freePort(), Torture.node(database,
                "schedule-node-" + n,
                "quarkus.durable-batch.jobs.tick.schedule.cron", "0/2 * * * * ?",
                "quarkus.durable-batch.jobs.tick.schedule.time-zone", "UTC",
                "quarkus.durable-batch.jobs.tick.schedule.misfire-policy", "run-all",
                "quarkus.durable-batch.jobs.tick.schedule.misfire-limit", "100",
                "quarkus.durable-batch.jobs.tick.schedule.overlap", "allow",
                "quarkus.log.category.\"io.durablebatch\".level", "INFO"));
    }

    /** How many completed runs each fire time has. */
    private static Map<Instant, Integer> ticks(DemoDatabase database) throws SQLException {
        Map<Instant, Integer> ticks = new TreeMap<>();
        try (Connection connection = DriverManager.getConnection(database.url(), database.username(),
                database.password());
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT fire_time FROM demo_schedule_ticks")) {
            while (rows.next()) {
                ticks.merge(rows.getTimestamp(1).toInstant().truncatedTo(ChronoUnit.SECONDS), 1, Integer::sum);
            }
        }
        return ticks;
    }

    private static Instant lastFireTime(DemoDatabase database) throws SQLException {
        try (Connection connection = DriverManager.getConnection(database.url(), database.username(),
                database.password());
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT last_fire_time FROM dbatch_schedule WHERE job_name = 'tick'")) {
            rows.next();
            return rows.getTimestamp(1).toInstant();
        }
    }
}
