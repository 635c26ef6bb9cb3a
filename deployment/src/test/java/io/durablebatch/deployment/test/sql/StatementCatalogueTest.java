package io.durablebatch.deployment.test.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.hibernate.StatelessSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.durablebatch.runtime.sql.RepositoryPersistenceUnit;
import io.durablebatch.runtime.sql.SqlStatement;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The statement catalogue: every statement the repository and the kernel run, as PostgreSQL plans
 * it. Each statement must prepare with the types PostgreSQL infers for its named parameters, every
 * access to a repository table must be served by an index (its generic plan, with sequential scans
 * disabled, has none), and {@code docs/modules/ROOT/pages/statements.adoc} must list exactly these
 * statements. {@code -Dcatalogue.write=true} rewrites that page (statements and plans) instead.
 */
class StatementCatalogueTest {

    private static final Path PAGE = Path.of("../docs/modules/ROOT/pages/statements.adoc");
    private static final Pattern PLAN_BLOCK = Pattern.compile("(?s)\\.Generic plan[^\\n]*\\n\\[source]\\n----\\n.*?\\n----\\n");
    private static final Pattern SEQUENTIAL_SCAN = Pattern.compile("Seq Scan on dbatch_\\w+");

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(BuiltStatements.class)
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false");

    @Inject
    RepositoryTables tables;

    @Inject
    @RepositoryDataSource
    AgroalDataSource dataSource;

    @Inject
    @RepositoryPersistenceUnit
    StatelessSession session;

    @Test
    void everyStatementIsIndexedAndCatalogued() throws Exception {
        List<SqlStatement> statements = everyStatement();
        assertTrue(statements.size() > 50, "found the statements: " + statements.size());
        Map<SqlStatement, String> plans = plans(statements);
        List<String> scanning = plans.entrySet().stream()
                .filter(entry -> SEQUENTIAL_SCAN.matcher(entry.getValue()).find())
                .map(entry -> entry.getKey() + ":\n" + entry.getValue()).toList();
        assertEquals(List.of(), scanning, "statements with a repository table no index serves");

        List<EntityQuery<?>> queries = everyEntityQuery();
        assertTrue(queries.size() >= 10, "found the entity queries: " + queries.size());
        assertEquals(List.of(), invalid(queries), "entity queries Hibernate does not accept");

        String page = page(plans, queries);
        Path generated = Path.of("target/statements.adoc");
        Files.writeString(generated, page);
        if (Boolean.getBoolean("catalogue.write")) {
            Files.writeString(PAGE, page);
        }
        assertEquals(withoutPlans(page), withoutPlans(Files.readString(PAGE)),
                "the statement catalogue is stale: rerun this test with -Dcatalogue.write=true (" + generated + ")");
    }

    @Test
    void aStatementNoIndexServesIsFound() throws SQLException {
        SqlStatement unindexed = SqlStatement.parse("Test", "byExitDescription",
                tables.substitute("SELECT id FROM {p}job_execution WHERE exit_description = :description"));
        String plan = plans(List.of(unindexed)).get(unindexed);
        assertTrue(SEQUENTIAL_SCAN.matcher(plan).find(), plan);
    }

    private List<SqlStatement> everyStatement() {
        return BuiltStatements.every(tables);
    }

    /** The entity queries the stores built (after {@link #everyStatement}), by store and name. */
    private List<EntityQuery<?>> everyEntityQuery() {
        List<EntityQuery<?>> queries = new ArrayList<>(tables.queries());
        queries.sort((a, b) -> a.toString().compareTo(b.toString()));
        return queries;
    }

    /** The entity queries Hibernate refuses (syntax, entity, attribute or result type), with why. */
    private List<String> invalid(List<EntityQuery<?>> queries) {
        return QuarkusTransaction.requiringNew().call(() -> {
            List<String> refused = new ArrayList<>();
            for (EntityQuery<?> query : queries) {
                try {
                    if (query.isMutation()) {
                        session.createMutationQuery(query.hql());
                    } else {
                        session.createSelectionQuery(query.hql(), query.resultType());
                    }
                } catch (RuntimeException e) {
                    refused.add(query + ": " + e.getMessage());
                }
            }
            return refused;
        });
    }

    /** The generic plan of each statement (any parameter values), with sequential scans disabled. */
    private Map<SqlStatement, String> plans(List<SqlStatement> statements) throws SQLException {
        Map<SqlStatement, String> plans = new LinkedHashMap<>();
        List<String> unprepared = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); Statement session = connection.createStatement()) {
            connection.setAutoCommit(false);
            session.execute("SET LOCAL plan_cache_mode = force_generic_plan");
            session.execute("SET LOCAL enable_seqscan = off");
            for (SqlStatement statement : statements) {
                // a statement that fails aborts the transaction: each one runs in a savepoint
                session.execute("SAVEPOINT catalogue");
                try {
                    plans.put(statement, plan(session, statement));
                    session.execute("RELEASE SAVEPOINT catalogue");
                } catch (SQLException e) {
                    session.execute("ROLLBACK TO SAVEPOINT catalogue");
                    unprepared.add(statement + " " + statement.parameterNames() + ": " + e.getMessage() + "\n"
                            + statement.numberedText());
                }
            }
            connection.rollback();
        }
        assertEquals(List.of(), unprepared, "statements that do not prepare with the types PostgreSQL infers");
        return plans;
    }

    private static String plan(Statement session, SqlStatement statement) throws SQLException {
        session.execute("PREPARE catalogue AS " + statement.numberedText());
        String nulls = String.join(", ", Collections.nCopies(statement.parameterNames().size(), "NULL"));
        StringBuilder plan = new StringBuilder();
        try (ResultSet rows = session.executeQuery("EXPLAIN (COSTS OFF) EXECUTE catalogue"
                + (nulls.isEmpty() ? "" : "(" + nulls + ")"))) {
            while (rows.next()) {
                plan.append(rows.getString(1)).append('\n');
            }
        }
        session.execute("DEALLOCATE catalogue");
        return plan.toString();
    }

    private static String page(Map<SqlStatement, String> plans, List<EntityQuery<?>> queries) {
        StringBuilder page = new StringBuilder("""
                = Statement catalogue

                Every statement the repository and the kernel run, by the store that runs it, as it is logged
                at DEBUG (category `io.durablebatch.sql`) when the store is built: the default table prefix
                (`dbatch_`) and lease (30 s) filled in, each parameter named. `PREPARE` takes the same text
                with the names numbered in order of first appearance (`$1`, `$2`, ...).

                Under each statement is its generic plan (the one PostgreSQL may cache for any parameter
                values), taken with sequential scans disabled: it names the index each access to a repository
                table uses. On a table of a few rows PostgreSQL rightly prefers a sequential scan. The
                build checks that no plan here needs one (`StatementCatalogueTest`) and that this page lists
                exactly the statements the code builds; `./mvnw test -pl runtime,deployment
                -Dtest=StatementCatalogueTest -Dcatalogue.write=true -Dsurefire.failIfNoSpecifiedTests=false`
                rewrites it. Plans as PostgreSQL 15 made them on the build's test database.

                The statements outside the repository's transactions are not listed: the session marks and
                the optional idle-in-transaction timeout (`RepositorySessions`) and the readiness check's
                schema version lookup.

                The lookups and mutations that need nothing of PostgreSQL itself are HQL over the
                repository's entities (`io.durablebatch.runtime.entity`); they are listed last, as
                written. Hibernate renders them (category `org.hibernate.SQL` logs the SQL) and the
                build checks that each one compiles against the entity model; `benchmarks/` checks the
                plans of the lookups it runs.
                """);
        Map<String, List<SqlStatement>> byOwner = plans.keySet().stream()
                .collect(Collectors.groupingBy(SqlStatement::owner, LinkedHashMap::new, Collectors.toList()));
        byOwner.forEach((owner, statements) -> {
            page.append("\n== ").append(owner).append('\n');
            for (SqlStatement statement : statements) {
                page.append("\n=== ").append(statement.name()).append("\n\n[source,sql]\n----\n")
                        .append(statement.text().strip()).append("\n----\n\n.Generic plan\n[source]\n----\n")
                        .append(plans.get(statement).strip()).append("\n----\n");
            }
        });
        page.append("\n== Entity queries\n");
        for (EntityQuery<?> query : queries) {
            page.append("\n=== ").append(query).append("\n\n[source]\n----\n").append(query.hql().strip())
                    .append("\n----\n");
        }
        return page.toString();
    }

    private static String withoutPlans(String page) {
        return PLAN_BLOCK.matcher(page).replaceAll("");
    }
}
