package io.durablebatch.benchmarks;

/** The ETL benchmarks' target table, emptied before every run. */
final class EtlTarget {

    private EtlTarget() {
    }

    static void create(BenchDatabase database) {
        database.execute("CREATE TABLE IF NOT EXISTS etl_target (id bigint PRIMARY KEY, payload text)");
    }

    static void truncate(BenchDatabase database) {
        database.execute("TRUNCATE etl_target");
    }

    static long rows(BenchDatabase database) {
        return database.queryLong("SELECT count(*) FROM etl_target");
    }
}
