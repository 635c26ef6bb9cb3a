package io.durablebatch.deployment.test.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.durablebatch.runtime.sql.SqlParams;
import io.durablebatch.runtime.sql.SqlRow;
import io.durablebatch.runtime.sql.SqlStatement;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The chunk's statement runs as plain JDBC ({@code MetadataSql.queryOneByJdbc}); it binds and reads
 * every scalar type, nulls included, and ids as a {@code bigint[]}, as the Hibernate path does, is counted, refuses a binding
 * mistake before it runs, and maps a failure as every other statement's.
 */
class JdbcStatementPathTest {

    private static final String DRIVER_QUERIES = "org.postgresql.core.v3.QueryExecutorImpl";

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false")
            // the driver logs each statement it parses at FINEST: what a test of its own statements reads
            .overrideConfigKey("quarkus.log.category.\"" + DRIVER_QUERIES + "\".min-level", "TRACE");

    private static final Instant AT = Instant.parse("2026-12-02T06:15:30.123456Z");

    @Inject
    RepositoryTables tables;

    @Inject
    MetadataSql sql;

    @Inject
    TransactionManager transactionManager;

    @Inject
    @RepositoryDataSource
    AgroalDataSource dataSource;

    @Test
    void bindsAndReadsEveryScalarTypeAsHibernateDoes() {
        SqlStatement statement = tables.statement("scalars", """
                SELECT CAST(:big AS bigint) AS big, CAST(:noBig AS bigint) AS no_big, CAST(:small AS integer) AS small,
                       CAST(:text AS text) AS text, CAST(:noText AS text) AS no_text, CAST(:flag AS boolean) AS flag,
                       CAST(:bytes AS bytea) AS bytes, CAST(:noBytes AS bytea) AS no_bytes,
                       CAST(:at AS timestamptz) AS at, CAST(:noAt AS timestamptz) AS no_at""");
        MetadataSql.Binder binder = JdbcStatementPathTest::bindScalars;
        List<Object> expected = List.of(42L, "empty", 7, "text", "empty", true, "[1, 2, 3]", "empty", AT, "empty");
        assertEquals(expected, inTransaction(() -> sql.queryOne(statement, binder, JdbcStatementPathTest::read)
                .orElseThrow()), "through Hibernate");
        long before = sql.statementsExecutedOnThisThread();
        assertEquals(expected, inTransaction(() -> sql.queryOneByJdbc(statement, binder, JdbcStatementPathTest::read)
                .orElseThrow()), "through JDBC");
        assertEquals(before + 1, sql.statementsExecutedOnThisThread(), "counted once");
    }

    private static void bindScalars(SqlParams params) {
        params.bigint("big", 42L).bigint("noBig", (Long) null).integer("small", 7).text("text", "text")
                .text("noText", null).bool("flag", true).bytes("bytes", new byte[] { 1, 2, 3 })
                .bytes("noBytes", null).time("at", AT).time("noAt", null);
    }

    private static List<Object> read(SqlRow row) {
        return List.of(row.bigint("big"), row.optionalBigint("no_big").<Object> map(v -> v).orElse("empty"),
                row.integer("small"), row.text("text"), row.optionalText("no_text").orElse("empty"), row.bool("flag"),
                Arrays.toString(row.bytes("bytes")),
                row.optionalBytes("no_bytes").<Object> map(Arrays::toString).orElse("empty"), row.time("at"),
                row.optionalTime("no_at").<Object> map(v -> v).orElse("empty"));
    }

    /**
     * The driver answers a column's type name only after a catalog lookup of the result's table columns
     * (to tell {@code serial} from {@code int4}), cached per connection: a hot-path read that asked for it
     * would pay catalog statements on every new pooled connection, for each result shape.
     */
    @Test
    void aReadOnANewConnectionSendsTheDatabaseNothingButItsStatement() {
        SqlStatement statement = tables.statement("columns", """
                SELECT id, created_at, status FROM {p}job_execution ORDER BY id DESC LIMIT 1""");
        dataSource.flush(AgroalDataSource.FlushMode.ALL);
        List<String> parsed = new ArrayList<>();
        Handler driverQueries = new Handler() {
            @Override
            public void publish(LogRecord record) {
                String message = new SimpleFormatter().formatMessage(record);
                if (message.contains("FE=> Parse")) {
                    parsed.add(message);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger driver = Logger.getLogger(DRIVER_QUERIES);
        Level level = driver.getLevel();
        driver.setLevel(Level.FINEST);
        driver.addHandler(driverQueries);
        try {
            inTransaction(() -> sql.queryByJdbc(statement, params -> {
            }, row -> row.time("created_at")));
        } finally {
            driver.removeHandler(driverQueries);
            driver.setLevel(level);
        }
        assertEquals(List.of(), parsed.stream().filter(message -> message.contains("pg_catalog")).toList(),
                "no catalog statement besides " + parsed);
        assertTrue(parsed.stream().anyMatch(message -> message.contains("job_execution")), "the read itself: " + parsed);
    }

    @Test
    void bindsIdsAsABigintArrayAsHibernateDoes() {
        SqlStatement statement = tables.statement("ids", """
                SELECT cardinality(CAST(:ids AS bigint[])) AS ids, CAST(42 AS bigint) = ANY (:ids) AS has_42,
                       CAST(:noIds AS bigint[]) IS NULL AS no_ids""");
        MetadataSql.Binder binder = params -> params.bigints("ids", new Long[] { 7L, 42L, 9L }).bigints("noIds", null);
        MetadataSql.RowMapper<List<Object>> read = row -> List.of(row.integer("ids"), row.bool("has_42"),
                row.bool("no_ids"));
        assertEquals(List.of(3, true, true), inTransaction(() -> sql.queryOne(statement, binder, read).orElseThrow()),
                "through Hibernate");
        assertEquals(List.of(3, true, true), inTransaction(() -> sql.queryOneByJdbc(statement, binder, read)
                .orElseThrow()), "through JDBC");
    }

    @Test
    void aBindingMistakeRunsNothing() {
        SqlStatement statement = tables.statement("mistake", "SELECT CAST(:a AS bigint) + CAST(:b AS bigint) AS sum");
        long before = sql.statementsExecutedOnThisThread();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> inTransaction(
                () -> sql.queryOneByJdbc(statement, params -> params.bigint("a", 1L), row -> row.bigint("sum"))));
        assertTrue(refused.getMessage().contains("parameters [b] not bound"), refused.getMessage());
        assertEquals(before, sql.statementsExecutedOnThisThread(), "nothing ran");
    }

    @Test
    void aFailureIsMappedAndRollsTheTransactionBack() throws Exception {
        SqlStatement statement = tables.statement("failing", "SELECT 1 / CAST(:zero AS integer) AS quotient");
        RepositoryException failure;
        transactionManager.begin();
        try {
            failure = assertThrows(RepositoryException.class, () -> sql.queryOneByJdbc(statement,
                    params -> params.integer("zero", 0), row -> row.integer("quotient")));
            assertEquals(Status.STATUS_MARKED_ROLLBACK, transactionManager.getStatus(), "the transaction can only roll back");
        } finally {
            transactionManager.rollback();
        }
        assertEquals(RepositoryError.STORAGE_FAILURE, failure.error());
        assertTrue(failure.getMessage().contains("SQL state 22012: ERROR: division by zero"), failure.getMessage());
    }

    private static <T> T inTransaction(Supplier<T> call) {
        return QuarkusTransaction.requiringNew().call(call::get);
    }
}
