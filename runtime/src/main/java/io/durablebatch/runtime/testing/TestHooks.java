package io.durablebatch.runtime.testing;

import java.util.Set;
import java.util.function.BooleanSupplier;

import io.durablebatch.job.JobDefinition;

/**
 * What a test library needs from the kernel and no application ever calls. The bean exists only in
 * an application that has {@code io.durablebatch:quarkus-durable-batch-junit} on its classpath (in
 * its tests): that library's {@code JobTester} is its caller. Production builds have no such bean,
 * and the chunk loop then pays nothing for it.
 */
public interface TestHooks {

    /**
     * Deletes every row of the repository's tables (those under the build's
     * {@code quarkus.durable-batch.schema.table-prefix}; the schema history stays) in one
     * transaction, then registers the upgrade edges the jobs declare again. Executions of other
     * processes sharing the database lose their rows too: tests get a database of their own.
     *
     * @throws IllegalStateException if an execution still runs in this process
     */
    void resetRepository();

    /**
     * Makes {@code definition} launchable by its name, as if it were a bean: a job the test library
     * derives at run time, such as a job of one step. Defining the same identity again does nothing.
     *
     * @throws IllegalArgumentException if another definition has that name
     */
    void define(JobDefinition definition);

    /**
     * Arms a failure of one chunk: the first time chunk {@code chunk} (counted from 1 in each step
     * attempt) of a chunk step named {@code stepName}, in a job named in {@code jobNames}, writes
     * items, {@code failure} is thrown in the chunk's transaction after the writer wrote and before
     * the progress is recorded, as if the writer had thrown it: the kernel rolls the chunk back and
     * retries, skips or fails as the step says. It fires once, then disarms itself.
     *
     * @return whether it has fired yet
     */
    BooleanSupplier failChunk(Set<String> jobNames, String stepName, long chunk, Exception failure);

    /** Disarms every failure that has not fired. */
    void clearFailures();
}
