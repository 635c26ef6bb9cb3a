package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.durablebatch.demo.DemoDatabase.StoredExecution;
import io.durablebatch.demo.Torture.Input;

/**
 * The database goes away in the middle of the import: two nodes on a private PostgreSQL cluster (the
 * test restarts and stops it, which it must never do to the shared one) with a 3 s lease. Whatever the
 * outage, the job completes, in the same execution or, when it ended FAILED with every step resolved
 * (its owner lost the repository for longer than its lease), in a restart the nodes make by
 * themselves; nothing stays active, no order is lost or imported twice, and both nodes survive.
 */
class DatabaseOutageTortureIT {

    static final long ORDERS = 300_000;
    static final int FILES = 4;

    private static final Pattern OUTAGE = Pattern.compile(
            "(?i)connection|terminat|shut ?down|I/O error|SQL state (08|57P)|not accept");

    enum Outage {
        /** {@code pg_ctl restart -m fast}: every connection is cut, open transactions roll back, back in a second. */
        RESTART,
        /** Crashed ({@code pg_ctl stop -m immediate}) and started again 5 s later: longer than the lease. */
        DOWN_5S,
        /** Crashed and started again 60 s later: connections fail for a minute. Only with -Dtorture=full. */
        DOWN_60S,
        /** Every session of the database terminated every 200 to 600 ms for 8 s, whatever it was doing. */
        CONNECTIONS_KILLED
    }

    private static PrivatePostgres cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = PrivatePostgres.start("outage");
    }

    @AfterAll
    static void removeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Outage.class)
    void theJobCompletesAfterAnOutageWithEveryOrderImportedOnce(Outage outage) throws Exception {
        assumeTrue(outage != Outage.DOWN_60S || Torture.full(), "the 60 s outage runs with -Dtorture=full");
        SplittableRandom random = new SplittableRandom(Torture.seed());
        DemoDatabase database = cluster.database();
        Input input = Input.fresh(ORDERS, FILES);
        String name = "outage-" + outage.name().toLowerCase().replace('_', '-');
        try (ChildApplication owner = Torture.start(name + "-owner", Torture.node(database, name + "-owner"));
                ChildApplication peer = Torture.start(name + "-peer", Torture.node(database, name + "-peer"))) {
            long execution = Torture.launch(owner, input);
            Torture.awaitRows(database, input, execution, ORDERS / 5 + random.nextLong(ORDERS / 5));
            long began = System.nanoTime();
            Instant outageBegan = Instant.now();
            String what = inflict(outage, database, random);

            StoredExecution completed = Torture.awaitCompleted(database, execution, Duration.ofMinutes(3),
                    Duration.ofSeconds(30), owner, peer);
            long instance = database.instanceOf(execution);
            List<StoredExecution> executions = database.executions(instance);
            assertTrue(executions.get(0).endedAt().toInstant().isAfter(outageBegan),
                    "the outage came after the end of the first attempt: it proves nothing\n"
                            + Torture.history(database, instance));
            for (StoredExecution attempt : executions) {
                if (attempt.id() != completed.id()) {
                    assertEquals("FAILED", attempt.status(), "an attempt before the completed one\n"
                            + Torture.history(database, instance));
                    assertTrue(namesTheOutage(database, attempt), "the failure of attempt " + attempt.id()
                            + " names the outage, or the lost lease it caused\n" + Torture.history(database, instance));
                }
                Torture.assertStepsResolved(database, attempt.id());
            }
            Torture.assertImportedExactlyOnce(database, input);
            assertTrue(owner.isAlive() && peer.isAlive(), "both nodes survived the outage:\n"
                    + Torture.story(owner, 40) + Torture.story(peer, 40));
            System.out.printf("outage %s: %s; completed %.1f s later; attempts %s%n", outage, what,
                    (System.nanoTime() - began) / 1e9, executions.stream()
                            .map(e -> e.id() + " " + e.status() + recovery(database, e) + failure(e))
                            .collect(Collectors.joining(", ")));
        }
    }

    private static String inflict(Outage outage, DemoDatabase database, SplittableRandom random) throws Exception {
        switch (outage) {
            case RESTART -> {
                cluster.restart();
                return "restarted";
            }
            case DOWN_5S, DOWN_60S -> {
                Duration down = outage == Outage.DOWN_5S ? Duration.ofSeconds(5) : Duration.ofSeconds(60);
                cluster.crash();
                Thread.sleep(down.toMillis());
                cluster.start();
                return "down for " + down.toSeconds() + " s";
            }
            case CONNECTIONS_KILLED -> {
                long until = System.nanoTime() + Duration.ofSeconds(8).toNanos();
                int rounds = 0;
                int terminated = 0;
                while (System.nanoTime() < until) {
                    terminated += database.terminateOtherSessions();
                    rounds++;
                    Thread.sleep(200 + random.nextInt(400));
                }
                return terminated + " sessions terminated in " + rounds + " rounds";
            }
            default -> throw new IllegalArgumentException(outage.name());
        }
    }

    /**
     * Whether a failed attempt says why: its own failure or a step's names the lost connection (a
     * terminated session, a server shutting down, an I/O error, SQL state class 08 or 57P), or the
     * attempt was recovered after its owner's lease ran out during the outage. The execution's own
     * failure is the one that tells when the connection was lost between steps (routing, or the
     * start of the next step), where no step holds it.
     */
    private static boolean namesTheOutage(DemoDatabase database, StoredExecution attempt) throws SQLException {
        if (database.recovery(attempt.id()).filter(r -> r.decision().contains("OWNER_LOST")).isPresent()) {
            return true;
        }
        return Stream.concat(Stream.of(attempt.failure()), database.steps(attempt.id()).stream()
                .map(DemoDatabase.StoredStep::failure))
                .anyMatch(failure -> failure != null && OUTAGE.matcher(failure).find());
    }

    private static String failure(StoredExecution execution) {
        return execution.failure() == null ? ""
                : " (" + execution.failure().substring(0, Math.min(160, execution.failure().length())) + ")";
    }

    private static String recovery(DemoDatabase database, StoredExecution execution) {
        try {
            return database.recovery(execution.id()).map(r -> " (recovered: " + r.decision() + ")").orElse("");
        } catch (SQLException e) {
            return " (" + e.getMessage() + ")";
        }
    }
}
