package io.durablebatch.deployment.test.sql;

import static io.durablebatch.deployment.test.RepositoryTestSupport.dropTablesWithPrefix;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.runtime.repository.JobExecutionListing;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.durablebatch.runtime.sql.SqlStatement;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Every listing the operator REST API and the Dev UI page walks the index its filter names under the
 * generic plan (the one PostgreSQL caches for a prepared statement after a few executions), whatever
 * the planner's statistics say. The tables hold a history that tempts the planner the wrong way: many
 * rows, a handful of jobs, two statuses, no owner, nothing vacuumed. There, a walk of the primary key
 * newest first that filters row by row looks cheap, and for a job or status without rows it reads the
 * whole table. The listings' own tables (prefix {@value #PREFIX}) keep that history out of other tests.
 */
class ListingPlanTest {

    private static final String PREFIX = "plans_";
    private static final int ROWS = 200_000;
    private static final Pattern PRIMARY_KEY_WALK = Pattern
            .compile(
                    "Index (?:Only )?Scan (?:Backward )?using (\\w+_pkey) on \\w+(?: \\w+)?\\n(?!\\s+Index Cond: \\((?:\\w+\\.)?id = )");

    /** The filtered listings, by owner and name, with the index each one must walk. */
    private static final Map<String, String> FILTERED = Map.ofEntries(
            Map.entry("JobExecutionListing.pageByOwnerAndJob", PREFIX + "job_execution_owner_job_ix"),
            Map.entry("JobExecutionListing.pageByOwner", PREFIX + "job_execution_owner_ix"),
            Map.entry("JobExecutionListing.pageByJob", PREFIX + "job_execution_job_created_ix"),
            Map.entry("JobExecutionListing.pageByStatus", PREFIX + "job_execution_status_created_ix"),
            Map.entry("JobInstanceStore.pageByJob", PREFIX + "job_instance_name_ix"),
            Map.entry("RecoveryStore.pageByInstance", PREFIX + "recovery_decision_instance_ix"),
            Map.entry("AuditTrail.pageByInstance[operator_request]", PREFIX + "operator_request_instance_ix"),
            Map.entry("AuditTrail.pageByInstance[retention_action]", PREFIX + "retention_action_instance_ix"),
            Map.entry("PartitionStore.page", PREFIX + "step_partition_ordinal_uq"),
            Map.entry("ScheduleStore.events", PREFIX + "schedule_event_job_idx"),
            Map.entry("StepExecutionStore.selectByJobExecutions", PREFIX + "step_execution_job_ix"));

    /**
     * The listings not named {@code page*}: a schedule's latest events, and the steps of a page of
     * executions (the Dev UI's executions page, an execution's detail).
     */
    private static final Set<String> NOT_NAMED_PAGE = Set.of("ScheduleStore.events",
            "StepExecutionStore.selectByJobExecutions");

    /** Listings whose tables hold no history here: planned with sequential scans off, as the catalogue is. */
    private static final Set<String> EMPTY_TABLES = Set.of("PartitionStore.page");

    /** The unfiltered listings: newest first along the primary key is their index. */
    private static final Set<String> UNFILTERED = Set.of("RecoveryStore.page",
            "RetentionHoldStore.page", "AuditTrail.page[operator_request]", "AuditTrail.page[retention_action]");

    private static final String[] HISTORY = {
            """
                    INSERT INTO {p}job_instance (job_name, key_bytes, key_digest, created_at)
                    SELECT 'plan-job-' || g %% 4, int8send(g), sha256(int8send(g)), now() - g * interval '1 second'
                    FROM generate_series(1, %1$d) AS g""",
            """
                    INSERT INTO {p}job_execution (job_instance_id, job_name, attempt, status, exit_code, created_at,
                        started_at, ended_at, last_updated, version, owner_token, owner_claimed_at)
                    SELECT i.id, i.job_name, 1, s.status, s.status, i.created_at, i.created_at, i.created_at,
                           i.created_at, 2, 'plan-node-' || i.id %% 2, i.created_at
                    FROM {p}job_instance i
                    CROSS JOIN LATERAL (SELECT CASE WHEN i.id %% 100 = 7 THEN 'FAILED' ELSE 'COMPLETED' END) s (status)""",
            """
                    INSERT INTO {p}recovery_decision (job_execution_id, job_instance_id, operation_id, actor, reason,
                        resolution, observed_status, observed_version, resulting_version, resolved_steps, decided_at)
                    SELECT g, g %% 4, 'op-' || g, 'plan', 'plan', 'FAILED', 'STARTED', 1, 2, 0, now()
                    FROM generate_series(1, %1$d) AS g""",
            """
                    INSERT INTO {p}operator_request (action, operation_id, actor, job_instance_id, request_digest, outcome,
                        recorded_at)
                    SELECT 'START', 'op-' || g, 'plan', g %% 4, sha256(int8send(g)), 'STARTED', now()
                    FROM generate_series(1, %1$d) AS g""",
            """
                    INSERT INTO {p}retention_action (action, operation_id, actor, job_instance_id, request_digest, outcome,
                        recorded_at)
                    SELECT 'PURGE', 'op-' || g, 'plan', g %% 4, sha256(int8send(g)), 'PURGED', now()
                    FROM generate_series(1, %1$d) AS g""",
            // the events of one schedule: those of any other job are none of the table
            """
                    INSERT INTO {p}schedule_event (job_name, action, operation_id, actor, fire_time, detail, recorded_at)
                    SELECT 'plan-job-0', 'SKIP', 'fire-' || g, 'plan', now(), 'overlap', now()
                    FROM generate_series(1, %1$d) AS g""",
            // one step an execution
            """
                    INSERT INTO {p}step_execution (job_execution_id, job_instance_id, step_name, status, exit_code,
                        created_at, started_at, ended_at, last_updated, version, node_id)
                    SELECT e.id, e.job_instance_id, 'plan-step', e.status, e.status, e.created_at, e.created_at,
                           e.created_at, e.created_at, 2, 'plan-step'
                    FROM {p}job_execution e""",
            // the newest execution's step is partitioned, with 1,000 workers
            """
                    INSERT INTO {p}step_execution (job_execution_id, job_instance_id, step_name, status, exit_code,
                        created_at, started_at, ended_at, last_updated, version)
                    SELECT e.id, e.job_instance_id, 'plan-worker', e.status, e.status, e.created_at, e.created_at,
                           e.created_at, e.created_at, 2
                    FROM (SELECT * FROM {p}job_execution ORDER BY id DESC LIMIT 1) e, generate_series(1, %2$d)""",
            // and so is every other execution's (their plans' partitions are none of these tables)
            """
                    INSERT INTO {p}step_partition_plan (parent_step_execution_id, partition_count, created_at)
                    SELECT s.id, 1, now() FROM {p}step_execution s
                    WHERE s.step_name = 'plan-step'
                      AND (s.job_execution_id %% 2 = 0 OR s.job_execution_id = (SELECT max(id) FROM {p}job_execution))""",
            "ANALYZE {p}job_instance, {p}job_execution, {p}recovery_decision, {p}operator_request, {p}retention_action, "
                    + "{p}schedule_event, {p}step_execution, {p}step_partition_plan" };

    /** The workers of the newest execution's partitioned step. */
    private static final int WORKERS = 1000;

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp(BuiltStatements.class)
            .overrideConfigKey("quarkus.durable-batch.schema.table-prefix", PREFIX)
            .setBeforeAllCustomizer(() -> dropTablesWithPrefix(PREFIX));

    private static boolean historyStored;

    @Inject
    RepositoryTables tables;

    @Inject
    JobExecutionListing executionListing;

    @Inject
    @RepositoryDataSource
    AgroalDataSource dataSource;

    @BeforeEach
    void storeHistory() throws SQLException {
        if (historyStored) {
            return;
        }
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (String sql : HISTORY) {
                statement.execute(tables.substitute(sql.formatted(ROWS, WORKERS)));
            }
        }
        historyStored = true;
    }

    @Test
    void everyFilteredListingWalksItsIndexUnderTheGenericPlan() throws SQLException {
        Map<String, SqlStatement> listings = new LinkedHashMap<>();
        for (SqlStatement statement : BuiltStatements.every(tables)) {
            if (statement.name().startsWith("page") || NOT_NAMED_PAGE.contains(statement.owner() + "." + statement.name())) {
                listings.put(statement.owner() + "." + statement.name(), statement);
            }
        }
        Set<String> known = new TreeSet<>(FILTERED.keySet());
        known.addAll(UNFILTERED);
        assertEquals(known, new TreeSet<>(listings.keySet()),
                "the listings: a new one must be added here, with the index its filter walks");

        Map<String, String> wrong = new LinkedHashMap<>();
        FILTERED.forEach((listing, index) -> {
            String plan = genericPlan(listings.get(listing), EMPTY_TABLES.contains(listing));
            if (primaryKeyWalk(plan) != null || !plan.contains(" using " + index + " ")) {
                wrong.put(listing, "should walk " + index + ":\n" + plan);
            }
        });
        assertEquals(Map.of(), wrong, "filtered listings that do not walk their index");
    }

    /**
     * Every filter combination of the execution listing (every subset of {@link ExecutionQuery}'s
     * components, so a new filter cannot escape): its walk names each given filter in the walked
     * index's range (its {@code Index Cond}) and checks nothing row by row; run on the history, each
     * status's walk reads at most 20 index pages and 2 pages a row it keeps (a condition the index only
     * checks on the entries it passes, as the second column of a row comparison is, would read
     * thousands here). The owner holds none of the job's executions: a job checked on the owner's
     * entries would read all of them.
     */
    @Test
    void everyExecutionFilterCombinationIsARangeOfTheWalkedIndex() {
        Map<String, Function<ExecutionQuery, ExecutionQuery>> filters = new LinkedHashMap<>();
        filters.put("job", query -> query.job(JobName.of("plan-job-1")));
        filters.put("statuses", query -> query.statuses(Set.of(ExecutionStatus.FAILED)));
        filters.put("createdFrom", query -> query.createdFrom(Instant.now().minusSeconds(3600)));
        filters.put("createdBefore", query -> query.createdBefore(Instant.now().minusSeconds(60)));
        filters.put("owner", query -> query.ownedBy(OwnerToken.of("plan-node-0")));
        assertEquals(Arrays.stream(ExecutionQuery.class.getRecordComponents()).map(RecordComponent::getName).toList(),
                List.copyOf(filters.keySet()), "the execution listing's filters: a new one must be added here");
        Map<String, String> columns = Map.of("job", "job_name", "statuses", "status", "createdFrom", "created_at",
                "createdBefore", "created_at", "owner", "owner_token");
        // the values each filter binds, as the listing binds them (a time range's end bounds the walk)
        Map<String, Map<String, String>> values = Map.of("job", Map.of("job", "'plan-job-1'"),
                "statuses", Map.of("statuses", "ARRAY['FAILED']"),
                "createdFrom", Map.of("createdFrom", "now() - interval '1 hour'"),
                "createdBefore", Map.of("untilCreated", "now() - interval '1 minute'", "untilId", "-9223372036854775808"),
                "owner", Map.of("owner", "'plan-node-0'"));

        List<String> names = List.copyOf(filters.keySet());
        Map<String, String> wrong = new LinkedHashMap<>();
        Map<SqlStatement, String> plans = new LinkedHashMap<>();
        for (int combination = 0; combination < 1 << names.size(); combination++) {
            ExecutionQuery query = ExecutionQuery.all();
            List<String> given = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                if ((combination & 1 << i) != 0) {
                    given.add(names.get(i));
                    query = filters.get(names.get(i)).apply(query);
                }
            }
            SqlStatement statement = executionListing.statement(query);
            String plan = plans.computeIfAbsent(statement, unused -> genericPlan(statement, false));
            String index = FILTERED.get(statement.owner() + "." + statement.name());
            Matcher walk = Pattern.compile("Index (?:Only )?Scan Backward using " + index
                    + " on \\w+\\n\\s+Index Cond: (.*)\\n((?:\\s+Filter: .*\\n)?)").matcher(plan);
            if (!walk.find() || primaryKeyWalk(plan) != null || plan.contains("Seq Scan")) {
                wrong.put(given.toString(), "should walk " + index + " backwards:\n" + plan);
                continue;
            }
            String range = walk.group(1);
            List<String> outOfRange = given.stream().filter(filter -> !range.contains(columns.get(filter))).toList();
            if (!outOfRange.isEmpty() || !walk.group(2).isEmpty()) {
                wrong.put(given.toString(), "filters out of the walked range " + outOfRange + ":\n" + plan);
                continue;
            }
            // run: every condition must end the walk, not only be checked on the entries it passes
            Map<String, String> bound = new LinkedHashMap<>(Map.of("statuses", "ARRAY[" + Arrays.stream(
                    ExecutionStatus.values()).map(status -> "'" + status + "'").collect(Collectors.joining(", ")) + "]",
                    "untilId", "9223372036854775807", "limit", "51"));
            given.forEach(filter -> bound.putAll(values.get(filter)));
            String run = genericPlan(statement, bound);
            // (the history is not vacuumed: each entry a walk keeps is checked in the table too)
            Matcher buffers = Pattern.compile("Scan Backward using " + index + " on \\w+ \\(actual rows=(\\d+) "
                    + "loops=(\\d+)\\)\\n(?:.*\\n)*?\\s+Buffers: shared hit=(\\d+)(?: read=(\\d+))?").matcher(run);
            if (!buffers.find() || Long.parseLong(buffers.group(3)) + (buffers.group(4) == null ? 0
                    : Long.parseLong(buffers.group(4))) > Long.parseLong(buffers.group(2))
                            * (20 + 2 * Long.parseLong(buffers.group(1)))) {
                wrong.put(given.toString(), "reads more than 20 index pages a status (and 2 a row it keeps):\n" + run);
            }
        }
        assertEquals(Map.of(), wrong, "filter combinations whose walk is not bounded by the page size");
    }

    /**
     * The steps of a page of executions (the Dev UI's page of 50, deep in the history) are read as one
     * range of the index on {@code (job_execution_id, id)} for each execution of the page: a descent of
     * the index and the steps' table pages, never a walk of the table.
     */
    @Test
    void theStepsOfAPageOfExecutionsAreOneRangeOfTheirIndexEach() throws SQLException {
        SqlStatement steps = BuiltStatements.every(tables).stream()
                .filter(statement -> statement.toString().equals("StepExecutionStore.selectByJobExecutions"))
                .findFirst().orElseThrow();
        List<Long> page = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet ids = statement.executeQuery(tables.substitute(
                        "SELECT id FROM {p}job_execution ORDER BY id DESC OFFSET " + ROWS / 2 + " LIMIT 50"))) {
            while (ids.next()) {
                page.add(ids.getLong(1));
            }
        }
        String run = genericPlan(steps, Map.of("jobExecutionIds", "CAST(ARRAY" + page + " AS bigint[])"));

        Matcher walk = Pattern.compile("Index Scan using " + PREFIX + "step_execution_job_ix on \\w+ \\(actual rows=(\\d+) "
                + "loops=1\\)\\n\\s+Index Cond: \\(job_execution_id = ANY .*\\n\\s+Buffers: shared hit=(\\d+)(?: read=(\\d+))?")
                .matcher(run);
        assertTrue(walk.find(), run);
        assertEquals(50, Integer.parseInt(walk.group(1)), run);
        long buffers = Long.parseLong(walk.group(2)) + (walk.group(3) == null ? 0 : Long.parseLong(walk.group(3)));
        assertTrue(buffers <= 4 * page.size(), "at most 4 pages an execution:\n" + run);
    }

    /**
     * The drill-down of one execution finds its partitioned steps in one statement: the execution's
     * range of the index on {@code (job_execution_id, id)}, each attempt probing the plans' primary
     * key, never a walk of either table, here for an execution of 1,001 step attempts (1,000 of them a
     * partitioned step's workers) among 200,000.
     */
    @Test
    void thePartitionedStepsOfAnExecutionAreItsRangeOfTheStepIndex() throws SQLException {
        String run = genericPlan(statement("PartitionStore.parentsIn"),
                Map.of("jobExecutionId", String.valueOf(newest("id"))));

        assertFalse(run.contains("Seq Scan"), run);
        Matcher walk = Pattern.compile("Index (?:Only )?Scan using " + PREFIX + "step_execution_job_ix on \\w+ s "
                + "\\(actual rows=(\\d+) loops=1\\)\\n\\s+Index Cond: \\(job_execution_id = ").matcher(run);
        assertTrue(walk.find(), run);
        assertEquals(WORKERS + 1, Integer.parseInt(walk.group(1)), run);
        assertTrue(run.contains(" using " + PREFIX + "step_partition_plan_pkey on "), run);
        assertTrue(run.matches("(?s)Nested Loop[^\\n]*\\(actual rows=1 loops=1\\)\\n.*"), "one parent:\n" + run);
        assertTrue(sharedBuffers(run) <= 4 * (WORKERS + 1), "at most 4 pages an attempt:\n" + run);
    }

    /**
     * A restart finds the latest attempt of a step in the instance's other executions in one statement:
     * a backward walk of the index on {@code (job_instance_id, step_name, id)} that stops at its first
     * row, whatever the history.
     */
    @Test
    void theLatestEarlierAttemptOfAStepIsTheFirstEntryOfItsIndexWalkedBackwards() throws SQLException {
        String run = genericPlan(statement("StepExecutionStore.latestBefore"), Map.of("jobInstanceId",
                String.valueOf(newest("job_instance_id")), "stepName", "'plan-step'", "current", "-1"));

        assertFalse(run.contains("Seq Scan") || run.contains("Sort"), run);
        Matcher walk = Pattern.compile("Index Scan Backward using " + PREFIX + "step_execution_instance_ix on \\w+ "
                + "\\(actual rows=1 loops=1\\)\\n\\s+Index Cond: \\(\\(job_instance_id = .*step_name.*\\n")
                .matcher(run);
        assertTrue(walk.find(), run);
        assertTrue(sharedBuffers(run) <= 8, "a descent of the index and one table page:\n" + run);
    }

    private SqlStatement statement(String name) {
        return BuiltStatements.every(tables).stream().filter(statement -> statement.toString().equals(name))
                .findFirst().orElseThrow();
    }

    /** A column of the newest execution: the one whose step has 1,000 workers. */
    private long newest(String column) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet id = statement.executeQuery(tables.substitute("SELECT " + column
                        + " FROM {p}job_execution ORDER BY id DESC LIMIT 1"))) {
            id.next();
            return id.getLong(1);
        }
    }

    /** The shared buffers of the plan's top node (its own and its children's). */
    private static long sharedBuffers(String run) {
        Matcher buffers = Pattern.compile("Buffers: shared hit=(\\d+)(?: read=(\\d+))?").matcher(run);
        assertTrue(buffers.find(), run);
        return Long.parseLong(buffers.group(1)) + (buffers.group(2) == null ? 0 : Long.parseLong(buffers.group(2)));
    }

    @Test
    void theHistoryTemptsThePlannerToWalkThePrimaryKey() {
        // the execution listing by job as it was: each status's walk named its columns as equalities
        SqlStatement equalities = SqlStatement.parse("Test", "pageByJobWithEqualities", tables.substitute("""
                SELECT w.id FROM unnest(CAST(:statuses AS varchar[])) AS s (status)
                CROSS JOIN LATERAL (
                    SELECT id FROM {p}job_execution
                    WHERE job_name = :job AND status = s.status AND id < :after
                    AND (CAST(:owner AS varchar) IS NULL OR owner_token = :owner)
                    ORDER BY id DESC
                    LIMIT :limit) w
                ORDER BY w.id DESC
                LIMIT :limit"""));
        String plan = genericPlan(equalities, false);
        assertEquals(PREFIX + "job_execution_pkey", primaryKeyWalk(plan), plan);
    }

    /** The primary key a plan walks (with a range or none: not looked up by id), or null. */
    private static String primaryKeyWalk(String plan) {
        Matcher walk = PRIMARY_KEY_WALK.matcher(plan);
        return walk.find() ? walk.group(1) : null;
    }

    /** The generic plan of a run with these values (SQL, by parameter name; NULL for the others). */
    private String genericPlan(SqlStatement statement, Map<String, String> values) {
        try (Connection connection = dataSource.getConnection(); Statement session = connection.createStatement()) {
            connection.setAutoCommit(false);
            session.execute("SET LOCAL plan_cache_mode = force_generic_plan");
            session.execute("PREPARE listing AS " + statement.numberedText());
            String arguments = statement.parameterNames().stream().map(name -> values.getOrDefault(name, "NULL"))
                    .collect(Collectors.joining(", "));
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = session.executeQuery(
                    "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE listing(" + arguments + ")")) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            session.execute("DEALLOCATE listing");
            connection.rollback();
            return plan.toString();
        } catch (SQLException e) {
            throw new IllegalStateException(statement + ": " + e.getMessage(), e);
        }
    }

    private String genericPlan(SqlStatement statement, boolean withoutSequentialScans) {
        try (Connection connection = dataSource.getConnection(); Statement session = connection.createStatement()) {
            connection.setAutoCommit(false);
            session.execute("SET LOCAL plan_cache_mode = force_generic_plan");
            if (withoutSequentialScans) {
                session.execute("SET LOCAL enable_seqscan = off");
            }
            session.execute("PREPARE listing AS " + statement.numberedText());
            String nulls = String.join(", ", Collections.nCopies(statement.parameterNames().size(), "NULL"));
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = session.executeQuery("EXPLAIN (COSTS OFF) EXECUTE listing(" + nulls + ")")) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            session.execute("DEALLOCATE listing");
            connection.rollback();
            return plan.toString();
        } catch (SQLException e) {
            throw new IllegalStateException(statement + ": " + e.getMessage(), e);
        }
    }

    @Test
    void aPlanThatLooksRowsUpByIdIsNoWalk() {
        assertEquals(null, primaryKeyWalk("""
                ->  Index Scan using plans_job_execution_pkey on plans_job_execution e
                      Index Cond: (id = plans_job_execution.id)
                """));
        assertTrue(primaryKeyWalk("""
                ->  Index Scan Backward using plans_job_execution_pkey on plans_job_execution
                      Index Cond: (id < $3)
                """) != null);
        assertTrue(primaryKeyWalk("""
                ->  Index Scan Backward using plans_schedule_event_pkey on plans_schedule_event
                      Filter: ((job_name)::text = ($1)::text)
                """) != null);
    }
}
