package io.durablebatch.demo;

// tag::imports[]
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.test.InjectedFailure;
import io.durablebatch.test.JobRun;
import io.durablebatch.test.JobTester;
import io.durablebatch.test.StepRun;
import io.quarkus.test.junit.QuarkusTest;

// end::imports[]
/**
 * The demo's jobs, tested as an application tests its own jobs: with {@link JobTester}. Each test
 * imports a day of its own, 2,400 orders in two files of 1,200 (one partition each: chunks of 1,000
 * and 200). The page "Testing your jobs" quotes this class.
 */
// tag::setup[]
@QuarkusTest
class DemoJobsTest {

    @Inject
    JobTester tester;

    @Inject
    AgroalDataSource dataSource;

    @BeforeEach
    void reset() throws SQLException {
        tester.resetRepository(); // no job instance, execution or audit record of an earlier test
        tester.clearFailures(); // no failure armed by an earlier test
        // the application's own tables are the test's to clean: here, the days the tests import
        // end::setup[]
        for (String table : List.of("demo_orders", "demo_daily_summary", "demo_order_audit")) {
            update("DELETE FROM " + table + " WHERE placed_on >= ?", LocalDate.of(2040, 1, 1));
        }
        // tag::setup[]
    }
    // end::setup[]

    // tag::parameters[]
    private static JobParameters day(String day) {
        return JobParameters.of(Map.of("day", day, "orders", 2400L, "files", 2L)); // identifying, all three
    }
    // end::parameters[]

    // tag::launch[]
    @Test
    void importsEveryOrderOfTheDayAndSummarizesIt() throws SQLException {
        JobRun run = tester.launch("importOrders", day("2040-01-01"));

        run.assertCompleted()
                .assertStep("import", step -> step.assertReadCount(2400).assertWriteCount(2400).assertSkipCount(0))
                .assertStep("summarize", StepRun::assertCompleted);
        List<StepRun> workers = run.steps("importFile"); // a worker step execution per partition: a file
        assertEquals(2, workers.size());
        workers.forEach(worker -> worker.assertCompleted().assertWriteCount(1200).assertCommitCount(2));
        assertEquals(2400, count("SELECT count(*) FROM demo_orders WHERE placed_on = ?", "2040-01-01"));
    }
    // end::launch[]

    // tag::failure[]
    @Test
    void aFailedChunkRollsBackAndTheRestartImportsEveryOrderExactlyOnce() throws SQLException {
        InjectedFailure diskFull = tester.failAt("importOrders", "importFile", 2,
                new IllegalStateException("disk full"));

        JobRun failed = tester.launch("importOrders", day("2040-01-02"));

        diskFull.assertFired();
        failed.assertFailed().assertFailureContains("disk full") // the failed worker's failure
                .assertStep("import", step -> step.assertWriteCount(1000 + 1200)); // chunk 1 of one file, the other file
        assertEquals(2200, count("SELECT count(*) FROM demo_orders WHERE placed_on = ?", "2040-01-02"));

        JobRun restarted = tester.restart(failed).assertCompleted().assertAttempt(2);
        restarted.step("importFile").assertReadCount(200).assertWriteCount(200); // the failed file, from its checkpoint
        restarted.step("import").assertWriteCount(1200 + 200); // the completed file's result is kept
        assertEquals(2400, count("SELECT count(*) FROM demo_orders WHERE placed_on = ?", "2040-01-02"));
        assertEquals(2400, count("SELECT count(DISTINCT id) FROM demo_orders WHERE placed_on = ?", "2040-01-02"));
    }
    // end::failure[]

    // tag::step[]
    @Test
    void theImportStepRunsAlone() throws SQLException {
        tester.launchStep("importOrders", "import", day("2040-01-03")) // no generate, no summarize
                .assertCompleted()
                .assertStep("import", step -> step.assertWriteCount(2400));

        assertEquals(2400, count("SELECT count(*) FROM demo_orders WHERE placed_on = ?", "2040-01-03"));
        assertEquals(0, count("SELECT count(*) FROM demo_daily_summary WHERE placed_on = ?", "2040-01-03"));
    }
    // end::step[]

    @Test
    void theAuditResumesAfterItsLastCommittedChunk() throws SQLException {
        tester.launch("importOrders", day("2040-01-04")).assertCompleted();
        tester.failAt("auditOrders", "audit", 3, new IllegalStateException("audit store down"));

        JobRun failed = tester.launch("auditOrders", JobParameters.of("day", "2040-01-04"))
                .assertFailed()
                .assertStep("audit", step -> step.assertCommitCount(2).assertWriteCount(1000).assertRollbackCount(1));

        tester.restart(failed).assertCompleted()
                .assertStep("audit", step -> step.assertReadCount(1400).assertWriteCount(1400).assertCommitCount(3));
        assertEquals(2400, count("SELECT count(DISTINCT order_id) FROM demo_order_audit WHERE placed_on = ?",
                "2040-01-04"));
    }

    private long count(String sql, String day) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setDate(1, Date.valueOf(day));
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private void update(String sql, LocalDate from) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setDate(1, Date.valueOf(from));
            statement.executeUpdate();
        }
    }
}
