package io.durablebatch.benchmarks;

/** The ways {@code chunk-etl} runs the same ETL ({@code benchmark.kernel.paths}). */
enum EtlPath {
    /** Through the kernel: a chunk step with a JDBC batch writer, one JTA transaction per chunk. */
    KERNEL("kernel"),
    /** The limit: the same transactions with plain JDBC on one connection. */
    BARE_JDBC("bareJdbc"),
    /** The same transactions as JTA transactions on the pooled datasource, without the kernel. */
    JTA_JDBC("jtaJdbc");

    private final String field;

    EtlPath(String field) {
        this.field = field;
    }

    /** The prefix of this path's figures in the JSON line: {@code kernelItemsPerSecond}, ... */
    String field() {
        return field;
    }
}
