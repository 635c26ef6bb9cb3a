package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.durablebatch.demo.DemoDatabase.StoredExecution;
import io.durablebatch.demo.DemoDatabase.StoredStep;
import io.restassured.http.ContentType;

/**
 * What the torture tests share: how many trials they run, nodes with a short lease that recover and
 * restart each other's executions, and the checks that every order was imported exactly once.
 * <p>
 * {@code -Dtorture=full} runs every scenario at full length (25 kill trials, the 60 s database
 * outage); the default, {@code ci}, runs a reduced count. {@code -Dtorture.trials=N} sets the number
 * of kill trials either way, {@code -Dtorture.seed=S} replays a run's random kill points.
 */
final class Torture {

    /**
     * A short lease, so a lost owner is noticed within seconds; {@code -Dtorture.lease=30s} (with
     * {@code -Dtorture.sweep-interval=5s}) measures the defaults.
     */
    static final Duration LEASE = duration("torture.lease", "3s");

    static final Duration SWEEP_INTERVAL = duration("torture.sweep-interval", "1s");

    /** How long a frozen owner's open transaction keeps its row locks before the server ends it. */
    static final Duration IDLE_IN_TRANSACTION = Duration.ofSeconds(5);

    /** The first line of a log record (stack traces and continuation lines are left out of a story). */
    private static final Pattern LOG_RECORD = Pattern.compile("\\d{4}-\\d{2}-\\d{2} ");

    private static final Pattern RUNTIME_STORY = Pattern.compile(
            "(?i)WARN|ERROR|lease|recover|restart|fenc|no longer|ended|started|owner|release|transient|connection");

    private Torture() {
    }

    private static Duration duration(String property, String otherwise) {
        return Duration.parse("PT" + System.getProperty(property, otherwise).toUpperCase(Locale.ROOT));
    }

    static boolean full() {
        return "full".equals(System.getProperty("torture", "ci"));
    }

    static int trials() {
        String trials = System.getProperty("torture.trials", "");
        return trials.isBlank() ? (full() ? 25 : 2) : Integer.parseInt(trials);
    }

    /** The seed of this run's random choices, printed so a failing run can be replayed. */
    static long seed() {
        String seed = System.getProperty("torture.seed", "");
        long chosen = seed.isBlank() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(seed);
        System.out.println("torture seed " + chosen + " (replay with -Dtorture.seed=" + chosen + ")");
        return chosen;
    }

    /**
     * A database of its own, {@code name}, on the shared test cluster, created anew: each run of a
     * test starts with an empty repository (the table prefix is fixed at build time, so a test is
     * isolated by its database), and what it leaves behind is neither recovered by the nodes of the
     * next nor seen by other processes.
     */
    static DemoDatabase sharedDatabase(String name) throws SQLException {
        return DemoDatabase.shared().recreated(name);
    }

    /**
     * The properties of a torture node: its node id, its database (each test has its own), the short lease,
     * a sweeper every second, five automatic restarts after a lost owner, DEBUG logging of the whole
     * kernel; then {@code more} (key, value, key, value, ...).
     */
    static Map<String, String> node(DemoDatabase database, String nodeId, String... more) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("quarkus.durable-batch.node-id", nodeId);
        properties.put("quarkus.datasource.jdbc.url", database.url());
        properties.put("quarkus.datasource.username", database.username());
        properties.put("quarkus.datasource.password", database.password());
        properties.put("quarkus.durable-batch.lease.duration", LEASE.toMillis() + "ms");
        properties.put("quarkus.durable-batch.lease.sweep-interval", SWEEP_INTERVAL.toMillis() + "ms");
        properties.put("quarkus.durable-batch.lease.restart-on-owner-loss", "5");
        properties.put("quarkus.durable-batch.control.poll-interval", "500ms");
        properties.put("quarkus.durable-batch.statements.idle-in-transaction-timeout", IDLE_IN_TRANSACTION.toSeconds() + "s");
        properties.put("quarkus.log.category.\"io.durablebatch\".level", "DEBUG");
        for (int i = 0; i + 1 < more.length; i += 2) {
            properties.put(more[i], more[i + 1]);
        }
        return properties;
    }

    /** Starts a node on a free port; its log is {@code target/torture/<name>.log}. */
    static ChildApplication start(String name, Map<String, String> properties) throws Exception {
        return ChildApplication.start("torture/" + name, ChildApplication.freePort(), properties);
    }

    /** One day's input: {@code orders} generated orders in {@code files} files, imported by one instance. */
    record Input(LocalDate day, long orders, int files) {

        static Input fresh(long orders, int files) {
            return new Input(CrashRecoveryIT.freshDay(), orders, files);
        }

        Map<String, Object> parameters() {
            return Map.of("day", day.toString(), "orders", orders, "files", files);
        }
    }

    /** Launches the import of {@code input} on {@code node} through its operator API; returns the execution. */
    static long launch(ChildApplication node, Input input) {
        return node.given().contentType(ContentType.JSON)
                .body(Map.of("parameters", input.parameters()))
                .post("/jobs/importOrders/start").then().statusCode(202).extract().jsonPath().getLong("executionId");
    }

    static long importedRows(DemoDatabase database, LocalDate day) throws SQLException {
        return database.count("SELECT count(*) FROM demo_orders WHERE placed_on = ?", day);
    }

    /** Waits until {@code atLeast} rows of the day are committed, or the execution ended without them. */
    static long awaitRows(DemoDatabase database, Input input, long execution, long atLeast) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            long rows = importedRows(database, input.day());
            if (rows >= atLeast) {
                return rows;
            }
            boolean running = List.of("STARTING", "STARTED").contains(database.executionStatus(execution));
            if (!running || System.nanoTime() > deadline) {
                fail("the import never reached " + atLeast + " rows (" + rows + " committed):\n"
                        + history(database, database.instanceOf(execution)));
            }
            Thread.sleep(10);
        }
    }

    /**
     * Waits until the instance of {@code execution} has a COMPLETED execution and nothing active,
     * without any call from the test: recoveries and restarts must happen by themselves. Fails as soon
     * as the instance is stuck: nothing active and nothing completed for {@code stuckAfter}, or not
     * done by {@code timeout}.
     */
    static StoredExecution awaitCompleted(DemoDatabase database, long execution, Duration timeout, Duration stuckAfter,
            ChildApplication... nodes) throws Exception {
        long instance = database.instanceOf(execution);
        long deadline = System.nanoTime() + timeout.toNanos();
        Long idleSince = null;
        while (true) {
            long now = System.nanoTime();
            try {
                List<StoredExecution> executions = database.executions(instance);
                Optional<StoredExecution> completed = executions.stream().filter(e -> e.status().equals("COMPLETED"))
                        .findFirst();
                boolean active = executions.stream().anyMatch(StoredExecution::active);
                if (completed.isPresent() && !active) {
                    return completed.get();
                }
                idleSince = active ? null : idleSince == null ? now : idleSince;
            } catch (SQLException e) {
                // the database is away (an outage under test): look again
            }
            if (idleSince != null && now - idleSince > stuckAfter.toNanos()) {
                fail("instance " + instance + " ended without completing and was not restarted within " + stuckAfter
                        + ":\n" + diagnosis(database, instance, nodes));
            }
            if (now > deadline) {
                fail("instance " + instance + " did not complete within " + timeout + ":\n"
                        + diagnosis(database, instance, nodes));
            }
            Thread.sleep(250);
        }
    }

    /** The instance's executions, their steps if unresolved, recoveries and operator audit rows. */
    static String history(DemoDatabase database, long instance) throws SQLException {
        StringBuilder history = new StringBuilder();
        for (StoredExecution execution : database.executions(instance)) {
            history.append("  execution ").append(execution).append('\n');
            database.recovery(execution.id()).ifPresent(r -> history.append("    recovered: ").append(r).append('\n'));
            for (StoredStep step : database.steps(execution.id())) {
                if (!isResolved(step)) {
                    history.append("    unresolved step ").append(step).append('\n');
                } else if (step.failure() != null) {
                    history.append("    failed step ").append(step).append('\n');
                }
            }
        }
        for (var request : database.operatorRequests(instance)) {
            history.append("  operator audit ").append(request).append('\n');
        }
        return history.toString();
    }

    /** Everything to look at when an instance does not complete: history, sessions, what the nodes logged. */
    static String diagnosis(DemoDatabase database, long instance, ChildApplication... nodes) throws Exception {
        StringBuilder diagnosis = new StringBuilder(history(database, instance));
        diagnosis.append("sessions:\n").append(database.sessions());
        for (ChildApplication node : nodes) {
            diagnosis.append(story(node, 60));
        }
        return diagnosis.toString();
    }

    /** The last {@code lines} lines of a node's log that tell what the runtime did (recoveries, leases, failures). */
    static String story(ChildApplication node, int lines) throws IOException {
        List<String> told = node.log().lines().filter(line -> LOG_RECORD.matcher(line).lookingAt())
                .filter(line -> line.contains("[io.durablebatch.") || line.contains("[io.quarkus]"))
                .filter(line -> RUNTIME_STORY.matcher(line).find())
                .map(line -> line.length() > 400 ? line.substring(0, 400) + "..." : line).toList();
        return "--- " + node.name() + " (" + (node.isAlive() ? "alive" : "dead") + "), last " + lines
                + " lines about the runtime:\n"
                + String.join("\n", told.subList(Math.max(0, told.size() - lines), told.size())) + "\n";
    }

    static boolean isResolved(StoredStep step) {
        return !List.of("STARTING", "STARTED", "STOPPING").contains(step.status());
    }

    /** Every step of {@code execution} is resolved: none is left running after the execution ended. */
    static void assertStepsResolved(DemoDatabase database, long execution) throws SQLException {
        List<StoredStep> unresolved = database.steps(execution).stream().filter(step -> !isResolved(step)).toList();
        assertEquals(List.of(), unresolved, "steps of execution " + execution + " left unresolved");
    }

    /** The totals of a day: what the input holds, or what was imported. */
    record DayTotals(long orders, long distinctIds, long idSum, long customers, BigDecimal revenue) {
    }

    /** The day's daily summary row. */
    record Summary(long orders, long customers, BigDecimal revenue) {
    }

    /**
     * Every order of the input is in {@code demo_orders} exactly once (count, distinct ids, the sum of
     * the ids, customers and revenue all equal the input files'), and the daily summary agrees.
     */
    static void assertImportedExactlyOnce(DemoDatabase database, Input input) throws Exception {
        DayTotals expected = totalsOfInput(input);
        List<Object> imported = database.row("SELECT count(*), count(DISTINCT id), coalesce(sum(id), 0), "
                + "count(DISTINCT customer), coalesce(sum(amount), 0) FROM demo_orders WHERE placed_on = ?", input.day());
        DayTotals actual = new DayTotals(((Number) imported.get(0)).longValue(), ((Number) imported.get(1)).longValue(),
                ((Number) imported.get(2)).longValue(), ((Number) imported.get(3)).longValue(),
                ((BigDecimal) imported.get(4)).setScale(2));
        assertEquals(expected, actual, "the imported orders of " + input.day());
        List<Object> summary = database.row("SELECT orders, customers, revenue FROM demo_daily_summary "
                + "WHERE placed_on = ?", input.day());
        assertEquals(new Summary(expected.orders(), expected.customers(), expected.revenue()),
                summary.isEmpty() ? null
                        : new Summary(((Number) summary.get(0)).longValue(),
                                ((Number) summary.get(1)).longValue(), ((BigDecimal) summary.get(2)).setScale(2)),
                "the daily summary of " + input.day());
    }

    /** The totals of the input files, the same bytes the application generated and read. */
    static DayTotals totalsOfInput(Input input) throws IOException {
        long orders = 0;
        long idSum = 0;
        Set<Long> ids = new HashSet<>();
        Set<String> customers = new HashSet<>();
        BigDecimal revenue = BigDecimal.ZERO.setScale(2);
        for (Path file : OrderFiles.ensure(Path.of("target/it-input"), input.day(), input.orders(), input.files())) {
            try (BufferedReader lines = Files.newBufferedReader(file)) {
                lines.readLine();
                String line;
                while ((line = lines.readLine()) != null) {
                    String[] fields = line.split(",");
                    long id = Long.parseLong(fields[0]);
                    orders++;
                    idSum += id;
                    ids.add(id);
                    customers.add(fields[1]);
                    revenue = revenue.add(new BigDecimal(fields[2]));
                }
            }
        }
        return new DayTotals(orders, ids.size(), idSum, customers.size(), revenue);
    }

    /** Removes a verified day's rows and input files, so a full run does not grow the shared tables. */
    static void discard(DemoDatabase database, Input input) throws Exception {
        database.update("DELETE FROM demo_orders WHERE placed_on = ?", input.day());
        database.update("DELETE FROM demo_daily_summary WHERE placed_on = ?", input.day());
        for (int file = 0; file < input.files(); file++) {
            Files.deleteIfExists(Path.of("target/it-input", String.format("orders-%s-%03d.csv", input.day(), file)));
        }
    }

    /** The lines of {@code log} that mention one of {@code ids} as a (step or job) execution id. */
    static List<String> linesMentioning(String log, Set<Long> ids) {
        String alternatives = ids.stream().map(String::valueOf).collect(Collectors.joining("|"));
        Pattern mention = Pattern.compile("execution\\s+(" + alternatives + ")\\b");
        return log.lines().filter(line -> mention.matcher(line).find()).toList();
    }

    static String lines(List<String> lines) {
        return lines.isEmpty() ? "(none)" : String.join("\n", lines);
    }
}
