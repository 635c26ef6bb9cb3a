package io.durablebatch.deployment.test.operator;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.persistence.Table;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.TransactionsBegun;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.item.ItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.entity.RepositoryEntities;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.schema.TablePrefix;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The JobOperator joins the caller's JTA transaction: a launch is recorded in it and runs only once
 * it committed; rolled back, it leaves no row in any repository table, like the application's own
 * write next to it. Stop and abandon join it too. Waiting in the transaction for what it launched
 * fails at once. Every check reads the database on a connection of the test's own, outside the
 * application's transactions.
 */
class LaunchInCallersTransactionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(Jobs.class, TransactionsBegun.class)
            // nothing but the launch may reach the database while its cost is counted
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "1h")
            .overrideConfigKey("quarkus.durable-batch.lease.duration", "3h");

    /** How many times each run's job ran, by its "run" parameter. */
    static final Map<String, AtomicInteger> RAN = new ConcurrentHashMap<>();

    @Singleton
    static class Jobs {

        @Produces
        JobDefinition recorded() {
            return Job.named("outbox-recorded").start(tasklet("record", context -> {
                RAN.computeIfAbsent(context.parameters().string("run"), run -> new AtomicInteger()).incrementAndGet();
                return RepeatStatus.FINISHED;
            })).build();
        }

        /** 100 000 items, one per chunk, 10 ms each: runs until stopped. */
        @Produces
        JobDefinition slow() {
            return Job.named("outbox-slow").start(chunk("items", 1).reader(context -> new Slow())
                    .writer(context -> items -> {
                    }).build()).build();
        }
    }

    static final class Slow implements ItemReader<Long> {
        private long read;

        @Override
        public void open(Optional<Checkpoint> checkpoint) {
        }

        @Override
        public Long read() throws InterruptedException {
            Thread.sleep(10);
            return read < 100_000 ? read++ : null;
        }

        @Override
        public Checkpoint checkpoint() {
            return Checkpoint.of(Long.toString(read).getBytes());
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    UserTransaction transaction;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RepositoryTables tables;

    @Inject
    MetadataSql sql;

    @Inject
    TransactionsBegun begun;

    @BeforeEach
    void createOrders() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS outbox_order (run text PRIMARY KEY)");
        }
    }

    /** A test that failed inside its transaction leaves no transaction to the next. */
    @AfterEach
    void rollBackWhatIsLeftOpen() throws Exception {
        if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
            transaction.rollback();
        }
    }

    @Test
    void aLaunchRunsOnlyOnceTheCallersTransactionCommitted() throws Exception {
        String run = fresh();
        transaction.begin();
        order(run);
        JobExecutionId id = operator.start("outbox-recorded", params(run), call());
        Thread.sleep(300); // long enough for a launch of its own to have run
        assertFalse(RAN.containsKey(run), "the launch ran before its transaction committed");
        assertEquals(Optional.empty(), committedStatus(id), "the execution is visible outside its transaction");
        transaction.commit();

        assertEquals(ExecutionStatus.COMPLETED, operator.await(id, Duration.ofSeconds(30)).status());
        assertEquals(1, RAN.get(run).get());
        assertTrue(ordered(run), "the application's write committed with the launch");
    }

    @Test
    void aRollbackLeavesNoRowInAnyTableAndNothingRuns() throws Exception {
        String run = fresh();
        Map<String, Long> before = rowsPerTable();
        transaction.begin();
        order(run);
        operator.start("outbox-recorded", params(run), call());
        transaction.rollback();

        Thread.sleep(300);
        assertEquals(before, rowsPerTable(), "rows per repository table");
        assertFalse(RAN.containsKey(run), "a rolled back launch ran");
        assertFalse(ordered(run));
    }

    @Test
    void aTransactionMarkedForRollbackLeavesNothingAndRefusesFurtherRequests() throws Exception {
        String run = fresh();
        Map<String, Long> before = rowsPerTable();
        transaction.begin();
        operator.start("outbox-recorded", params(run), call());
        transaction.setRollbackOnly();
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> operator.start("outbox-recorded", params(fresh()), call()));
        assertTrue(refused.getMessage().contains("marked for rollback"), refused.getMessage());
        assertThrows(RollbackException.class, transaction::commit);

        Thread.sleep(300);
        assertEquals(before, rowsPerTable(), "rows per repository table");
        assertFalse(RAN.containsKey(run), "a launch of a transaction marked for rollback ran");
    }

    @Test
    void theSameInstanceLaunchedTwiceInOneTransactionRunsOnce() throws Exception {
        String run = fresh();
        OperatorCall call = call();
        transaction.begin();
        JobExecutionId first = operator.start("outbox-recorded", params(run), call);
        // the same request again is answered from its audit record; another is refused
        assertEquals(first, operator.start("outbox-recorded", params(run), call));
        RepositoryException refused = assertThrows(RepositoryException.class,
                () -> operator.start("outbox-recorded", params(run), call()));
        assertEquals(RepositoryError.EXECUTION_ACTIVE, refused.error());
        assertEquals(Optional.empty(), committedStatus(first), "the execution is visible outside its transaction");
        transaction.commit();

        assertEquals(ExecutionStatus.COMPLETED, operator.await(first, Duration.ofSeconds(30)).status());
        Thread.sleep(300); // a second hand-off would run it again by now
        assertEquals(1, RAN.get(run).get(), "runs of the execution launched twice");
        assertEquals(List.of("COMPLETED"), statusesOfInstanceOf(first));
        assertEquals(1, auditRecords(first), "audit records of the launch");
    }

    @Test
    void awaitingInTheTransactionWhatItLaunchedFailsAtOnce() throws Exception {
        String run = fresh();
        String waited = fresh();
        transaction.begin();
        JobExecutionId id = operator.start("outbox-recorded", params(run), call());
        long began = System.nanoTime();
        IllegalStateException await = assertThrows(IllegalStateException.class,
                () -> operator.await(id, Duration.ofSeconds(20)));
        IllegalStateException runAndWait = assertThrows(IllegalStateException.class,
                () -> operator.runAndWait("outbox-recorded", params(waited), call()));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        assertTrue(tookMillis < 5_000, "refused after " + tookMillis + " ms");
        assertTrue(await.getMessage().contains("has not committed"), await.getMessage());
        assertTrue(runAndWait.getMessage().contains("in a transaction"), runAndWait.getMessage());
        // the refusals left the transaction as it was: its launch commits and runs
        transaction.commit();

        assertEquals(ExecutionStatus.COMPLETED, operator.await(id, Duration.ofSeconds(30)).status());
        assertFalse(RAN.containsKey(waited), "runAndWait launched in the transaction");
    }

    @Test
    void stopAndAbandonJoinTheCallersTransaction() throws Exception {
        JobExecutionId id = operator.start("outbox-slow", params(fresh()), call());
        transaction.begin();
        operator.stop(id, call());
        transaction.rollback();
        Thread.sleep(300);
        assertEquals(Optional.of("STARTED"), committedStatus(id), "a rolled back stop stopped the execution");
        assertFalse(stopRequested(id), "a rolled back stop request was recorded");

        transaction.begin();
        operator.stop(id, call());
        transaction.commit();
        assertEquals(ExecutionStatus.STOPPED, operator.await(id, Duration.ofSeconds(30)).status());

        transaction.begin();
        JobExecution abandoned = operator.abandon(id, call());
        assertEquals(ExecutionStatus.ABANDONED, abandoned.status());
        transaction.rollback();
        assertEquals(Optional.of("STOPPED"), committedStatus(id), "a rolled back abandon");

        transaction.begin();
        operator.abandon(id, call());
        transaction.commit();
        assertEquals(Optional.of("ABANDONED"), committedStatus(id));
    }

    /**
     * A launch in the caller's transaction costs what a launch of its own does (see
     * KernelLaunchCostTest: eight metadata statements), and its first five ride on the caller's
     * commit: the launch adds no transaction to the caller's, and the run commits once.
     */
    @Test
    void aLaunchInTheCallersTransactionCostsEightStatementsAndNoCommitOfItsOwn() throws Exception {
        launchedInATransaction(); // the first launch also loads what a process loads once
        long statements = sql.statementsExecuted();
        long transactions = begun.count();
        JobExecutionId id = launchedInATransaction();
        awaitEndOutsideTheApplication(id);

        assertEquals(8, sql.statementsExecuted() - statements, "metadata statements of a launch in a transaction");
        assertEquals(2, begun.count() - transactions, "transactions: the caller's and the run's end");
    }

    private JobExecutionId launchedInATransaction() throws Exception {
        transaction.begin();
        JobExecutionId id = operator.start("outbox-recorded", params(fresh()), call());
        transaction.commit();
        awaitEndOutsideTheApplication(id);
        return id;
    }

    private void awaitEndOutsideTheApplication(JobExecutionId id) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Optional<String> status = committedStatus(id);
            if (status.isPresent() && !ExecutionStatus.valueOf(status.get()).isActive()) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("job execution " + id + " did not end in 30 s");
    }

    private static String fresh() {
        return UUID.randomUUID().toString();
    }

    private static JobParameters params(String run) {
        return JobParameters.of("run", run);
    }

    private static OperatorCall call() {
        return OperatorCall.by("test");
    }

    /** The application's own write, in the caller's transaction. */
    private void order(String run) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO outbox_order VALUES (?)")) {
            insert.setString(1, run);
            insert.executeUpdate();
        }
    }

    private boolean ordered(String run) throws SQLException {
        try (Connection connection = outside();
                PreparedStatement select = connection.prepareStatement("SELECT 1 FROM outbox_order WHERE run = ?")) {
            select.setString(1, run);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        }
    }

    private static Connection outside() throws SQLException {
        return DriverManager.getConnection(System.getProperty("quarkus.datasource.jdbc.url"),
                System.getProperty("quarkus.datasource.username"), System.getProperty("quarkus.datasource.password"));
    }

    /** The status of the execution as committed, if it is. */
    private Optional<String> committedStatus(JobExecutionId id) throws SQLException {
        return single("SELECT status FROM {p}job_execution WHERE id = ?", id).map(String::valueOf);
    }

    private boolean stopRequested(JobExecutionId id) throws SQLException {
        return single("SELECT stop_requested_at IS NOT NULL FROM {p}job_execution WHERE id = ?", id)
                .map(Boolean.class::cast).orElseThrow();
    }

    private List<String> statusesOfInstanceOf(JobExecutionId id) throws SQLException {
        return single("""
                SELECT string_agg(status, ',' ORDER BY attempt) FROM {p}job_execution
                WHERE job_instance_id = (SELECT job_instance_id FROM {p}job_execution WHERE id = ?)""", id)
                .map(statuses -> List.of(statuses.toString().split(","))).orElseThrow();
    }

    private long auditRecords(JobExecutionId id) throws SQLException {
        return single("SELECT count(*) FROM {p}operator_request WHERE job_execution_id = ?", id)
                .map(Long.class::cast).orElseThrow();
    }

    private Optional<Object> single(String query, JobExecutionId id) throws SQLException {
        try (Connection connection = outside();
                PreparedStatement select = connection.prepareStatement(tables.substitute(query))) {
            select.setLong(1, id.value());
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.ofNullable(row.getObject(1)) : Optional.empty();
            }
        }
    }

    /** The rows of every repository table, by table. */
    private Map<String, Long> rowsPerTable() throws SQLException {
        Map<String, Long> rows = new LinkedHashMap<>();
        try (Connection connection = outside(); Statement statement = connection.createStatement()) {
            for (Class<?> entity : RepositoryEntities.CLASSES) {
                String table = TablePrefix.rename(entity.getAnnotation(Table.class).name(), tables.prefix());
                try (ResultSet row = statement.executeQuery("SELECT count(*) FROM " + table)) {
                    row.next();
                    rows.put(table, row.getLong(1));
                }
            }
        }
        return rows;
    }
}
