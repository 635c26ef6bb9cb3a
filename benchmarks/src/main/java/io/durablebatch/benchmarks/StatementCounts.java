package io.durablebatch.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements of one measured window: PostgreSQL's calls and execution times per normalised
 * statement text (from {@code pg_stat_statements}), the repository's JDBC statement count and, when counted, the
 * transactions PostgreSQL committed and rolled back ({@code pg_stat_database}).
 * <p>
 * PostgreSQL 15's pg_stat_statements records pgjdbc's COMMIT and ROLLBACK only until the driver
 * turns them into server-prepared statements (the fifth use on a connection): later executions
 * reuse a cached plan whose query id the extension has cleared, so they are not counted. Every
 * transaction of the repository ends with exactly one COMMIT or ROLLBACK statement, so the
 * database's own transaction counters stand in for them.
 */
record StatementCounts(Map<String, QueryStats> byQuery, long jdbcStatements, Optional<Transactions> transactions) {

    /** One normalised statement: its calls and the time the server spent executing them. */
    record QueryStats(long calls, double totalExecMillis, double maxExecMillis) {

        double meanExecMicros() {
            return calls == 0 ? 0 : totalExecMillis * 1_000 / calls;
        }
    }

    /** Transactions that ended in the window, as PostgreSQL counted them. */
    record Transactions(long commits, long rollbacks) {
    }

    private static final Pattern FIRST_WORD = Pattern.compile("^\\s*([A-Za-z]+)");

    StatementCounts {
        byQuery = Map.copyOf(byQuery);
    }

    /** Calls per statement kind (the first keyword: BEGIN, INSERT, ...), COMMIT and ROLLBACK from the transaction counters. */
    Map<String, Long> callsByKind() {
        Map<String, Long> kinds = new TreeMap<>();
        byQuery.forEach((query, stats) -> kinds.merge(kind(query), stats.calls(), Long::sum));
        kinds.remove("COMMIT");
        kinds.remove("ROLLBACK");
        Transactions counted = endedTransactions();
        if (counted.commits() > 0) {
            kinds.put("COMMIT", counted.commits());
        }
        if (counted.rollbacks() > 0) {
            kinds.put("ROLLBACK", counted.rollbacks());
        }
        return kinds;
    }

    /** Every statement PostgreSQL executed in the window, BEGIN, COMMIT and ROLLBACK included. */
    long pgStatements() {
        return callsByKind().values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * The time PostgreSQL spent executing the statements it recorded, in milliseconds: the COMMITs it
     * no longer records (see above) are left out, and with them the time their WAL flushes take.
     */
    double totalExecMillis() {
        return byQuery.values().stream().mapToDouble(QueryStats::totalExecMillis).sum();
    }

    long commits() {
        return endedTransactions().commits();
    }

    Transactions endedTransactions() {
        return transactions.orElseThrow(() -> new IllegalStateException("transactions were not counted in this window"));
    }

    /** Calls per kind divided by {@code units}, e.g. per launch. */
    Map<String, Double> callsByKindPer(long units) {
        Map<String, Double> perUnit = new TreeMap<>();
        callsByKind().forEach((kind, calls) -> perUnit.put(kind, calls / (double) units));
        return perUnit;
    }

    /** The normalised texts of the statements of one kind, as PostgreSQL recorded them. */
    List<String> queries(String kind) {
        return byQuery.keySet().stream().filter(query -> kind(query).equals(kind)).sorted().toList();
    }

    private static String kind(String query) {
        Matcher matcher = FIRST_WORD.matcher(query);
        return matcher.find() ? matcher.group(1).toUpperCase(Locale.ROOT) : "OTHER";
    }
}
