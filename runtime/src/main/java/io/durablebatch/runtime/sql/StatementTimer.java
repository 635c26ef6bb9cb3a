package io.durablebatch.runtime.sql;

/**
 * Times repository statements by name (a store's statement, {@code JobExecutionStore.transition}; an
 * entity's write, {@code JobExecutionEntity.insert}), as the statement catalogue names them. A bean
 * only where the application has Micrometer; without it {@link #NONE}, and a statement reads no clock.
 */
public interface StatementTimer {

    /** Times nothing. */
    StatementTimer NONE = (statement, nanos) -> {
    };

    /** A statement ran (to its result or its failure) in {@code nanos}. */
    void record(String statement, long nanos);
}
