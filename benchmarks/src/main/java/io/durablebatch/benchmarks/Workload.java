package io.durablebatch.benchmarks;

/** One measurement. It starts from empty repository tables and reports one JSON line. */
interface Workload {

    String name();

    /** What the workload measures, for the usage message. */
    String description();

    JsonLine run();
}
