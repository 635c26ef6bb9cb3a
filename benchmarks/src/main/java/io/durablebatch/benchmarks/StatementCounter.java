package io.durablebatch.benchmarks;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.durablebatch.runtime.sql.MetadataSql;

/**
 * Counts statements over a measured window, as PostgreSQL executed them ({@code pg_stat_statements},
 * which sees BEGIN too) and as the repository issued them over JDBC
 * ({@link MetadataSql#statementsExecuted()}); on request also the transactions PostgreSQL committed
 * and rolled back ({@code pg_stat_database}), see {@link StatementCounts}.
 * <p>
 * Only this database's statistics are reset ({@code pg_stat_statements_reset(0, dbid, 0)}): other
 * databases on the same server keep theirs. Opening and closing a window is one harness statement
 * each, and every harness statement that reads statistics names {@code pg_stat_}, so the counts
 * leave them out; every other harness statement runs outside windows.
 */
@ApplicationScoped
class StatementCounter {

    private static final Logger LOG = Logger.getLogger(StatementCounter.class);

    /**
     * PostgreSQL 15 backends publish their transaction counts at most once a second, and an idle
     * backend at the latest 10 s after its last transaction (PGSTAT_IDLE_INTERVAL). Waiting longer
     * than that before reading makes the counters exact.
     */
    private static final Duration STATS_SETTLE = Duration.ofSeconds(12);

    /** Resets this database's statement statistics and reads the counters, in one transaction. */
    private static final String OPEN = "SELECT pg_stat_statements_reset(0, d.datid, 0) IS NULL AS reset, "
            + "(SELECT dealloc FROM pg_stat_statements_info) AS evictions, d.xact_commit, d.xact_rollback "
            + "FROM pg_stat_database d WHERE d.datname = current_database()";

    private static final String CLOSE = "SELECT false AS reset, (SELECT dealloc FROM pg_stat_statements_info) AS evictions, "
            + "d.xact_commit, d.xact_rollback FROM pg_stat_database d WHERE d.datname = current_database()";

    private static final String CALLS = "SELECT query, sum(calls), sum(total_exec_time), max(max_exec_time) FROM pg_stat_statements "
            + "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            + "AND query NOT LIKE '%pg\\_stat\\_%' GROUP BY query";

    private final BenchDatabase database;
    private final MetadataSql metadataSql;

    StatementCounter(BenchDatabase database, MetadataSql metadataSql) {
        this.database = database;
        this.metadataSql = metadataSql;
    }

    /** Makes sure pg_stat_statements is loaded and installed in this database. */
    void prepare() {
        List<String> preloaded = database
                .queryStrings("SELECT setting FROM pg_settings WHERE name = 'shared_preload_libraries'");
        if (preloaded.isEmpty() || !preloaded.get(0).contains("pg_stat_statements")) {
            throw new IllegalStateException("PostgreSQL must preload pg_stat_statements to count statements: "
                    + "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements' and restart it "
                    + "(benchmarks/run.sh does this)");
        }
        database.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    }

    /** A window counting statements. */
    Window start() {
        return new Window(counters(OPEN), metadataSql.statementsExecuted(), false);
    }

    /** A window counting statements and transactions; opening and closing it each take {@link #STATS_SETTLE}. */
    Window startCountingTransactions() {
        // A backend publishes its transaction counts only along with table statistics: counts of
        // transactions that read no table (a connection's set-up, a statistics call) stay in the
        // backend until it next reads one, possibly inside the window. Reading a table on every
        // pooled connection, then waiting, publishes them all before the window opens.
        database.readTableOnEveryConnection();
        settle();
        return new Window(counters(OPEN), metadataSql.statementsExecuted(), true);
    }

    /** evictions, commits, rollbacks. */
    private long[] counters(String query) {
        return database.withConnection(connection -> {
            try (var statement = connection.createStatement(); var row = statement.executeQuery(query)) {
                row.next();
                return new long[] { row.getLong("evictions"), row.getLong("xact_commit"), row.getLong("xact_rollback") };
            }
        });
    }

    private static void settle() {
        try {
            Thread.sleep(STATS_SETTLE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the statistics", e);
        }
    }

    /** One measured window, from {@code start} to {@link #stop()}. */
    final class Window {
        private final long[] atStart;
        private final long jdbcAtStart;
        private final boolean countTransactions;

        private Window(long[] atStart, long jdbcAtStart, boolean countTransactions) {
            this.atStart = atStart;
            this.jdbcAtStart = jdbcAtStart;
            this.countTransactions = countTransactions;
        }

        StatementCounts stop() {
            long jdbc = metadataSql.statementsExecuted() - jdbcAtStart;
            if (countTransactions) {
                settle();
            }
            long[] atEnd = counters(CLOSE);
            Optional<StatementCounts.Transactions> transactions = Optional.empty();
            if (countTransactions) {
                // The statement that opened the window committed one transaction of its own.
                transactions = Optional.of(new StatementCounts.Transactions(atEnd[1] - atStart[1] - 1,
                        atEnd[2] - atStart[2]));
            }
            if (atEnd[0] != atStart[0]) {
                // pg_stat_statements.max was reached (the server is shared): entries may be missing.
                LOG.warn("pg_stat_statements evicted entries during the window: its counts may be low");
            }
            return new StatementCounts(calls(), jdbc, transactions);
        }

        private Map<String, StatementCounts.QueryStats> calls() {
            return database.withConnection(connection -> {
                Map<String, StatementCounts.QueryStats> byQuery = new HashMap<>();
                try (var statement = connection.createStatement(); var rows = statement.executeQuery(CALLS)) {
                    while (rows.next()) {
                        byQuery.put(rows.getString(1),
                                new StatementCounts.QueryStats(rows.getLong(2), rows.getDouble(3), rows.getDouble(4)));
                    }
                }
                return byQuery;
            });
        }
    }
}
