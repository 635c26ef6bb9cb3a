package io.durablebatch.deployment.test.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Statements are written with named placeholders and bound by name: a name stands in every place
 * it appears and is bound once; casts, literals, quoted identifiers and comments keep their colons;
 * a positional {@code ?}, an unknown fragment, an unknown name, a name bound twice or left unbound
 * are refused before anything runs.
 */
class NamedParametersTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false");

    @Inject
    RepositoryTables tables;

    @Inject
    MetadataSql sql;

    @Test
    void aNameStandsInEveryPlaceAndCastsLiteralsAndCommentsKeepTheirColons() {
        SqlStatement statement = SqlStatement.parse("Test", "parse", """
                SELECT :a::text, ':b', "x:y", CAST(:c AS bigint) -- :d is a comment
                WHERE :a = :a /* :e */""");
        assertEquals("""
                SELECT ?::text, ':b', "x:y", CAST(? AS bigint) -- :d is a comment
                WHERE ? = ? /* :e */""", statement.jdbcText());
        assertEquals("""
                SELECT $1::text, ':b', "x:y", CAST($2 AS bigint) -- :d is a comment
                WHERE $1 = $1 /* :e */""", statement.numberedText());
        assertEquals(List.of("a", "c"), List.copyOf(statement.parameterNames()));
    }

    @Test
    void aNameBoundOnceRunsInEveryPlace() {
        SqlStatement statement = tables.statement("twice", """
                SELECT CAST(:half AS bigint) + :half AS whole, CAST(:label AS text) || '::' AS label""");
        assertEquals(List.of("42 answer::"), inTransaction(() -> sql.query(statement,
                params -> params.bigint("half", 21L).text("label", "answer"),
                row -> row.bigint("whole") + " " + row.text("label"))));
    }

    @Test
    void positionalPlaceholdersAndUnknownFragmentsAreRefused() {
        IllegalArgumentException positional = assertThrows(IllegalArgumentException.class,
                () -> tables.statement("positional", "SELECT 1 WHERE ? = 1"));
        assertTrue(positional.getMessage().contains("NamedParametersTest.positional: positional '?'"),
                positional.getMessage());
        IllegalArgumentException fragment = assertThrows(IllegalArgumentException.class,
                () -> tables.statement("fragment", "SELECT {columns} FROM {p}job_execution", Map.of("column", "id")));
        assertTrue(fragment.getMessage().contains("no fragment for {columns}"), fragment.getMessage());
    }

    @Test
    void aBindingMistakeRunsNothing() {
        SqlStatement statement = tables.statement("mistakes", "SELECT CAST(:a AS bigint) + CAST(:b AS bigint) AS sum");
        long before = sql.statementsExecutedOnThisThread();
        assertRefused("parameters [b] not bound", () -> sql.queryOne(statement, params -> params.bigint("a", 1L),
                row -> row.bigint("sum")));
        assertRefused("parameter :a bound twice", () -> sql.queryOne(statement,
                params -> params.bigint("a", 1L).bigint("a", 2L).bigint("b", 3L), row -> row.bigint("sum")));
        assertRefused("has no parameter :c; it has [a, b]", () -> sql.queryOne(statement,
                params -> params.bigint("a", 1L).bigint("c", 3L), row -> row.bigint("sum")));
        assertEquals(before, sql.statementsExecutedOnThisThread(), "nothing ran");
        assertEquals(3L, inTransaction(() -> sql.queryOne(statement, params -> params.bigint("a", 1L).bigint("b", 2L),
                row -> row.bigint("sum")).orElseThrow()));
    }

    /** The repository's statements run in the caller's transaction: its stateless session is bound to one. */
    private static <T> T inTransaction(Supplier<T> call) {
        return QuarkusTransaction.requiringNew().call(call::get);
    }

    private static void assertRefused(String message, Runnable call) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> inTransaction(() -> {
                    call.run();
                    return null;
                }));
        assertTrue(refused.getMessage().contains(message), refused.getMessage());
    }
}
