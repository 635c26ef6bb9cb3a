package io.durablebatch.deployment.test.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.runtime.job.LeaseSweeper;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/** The sweeper's cost: one statement per sweep that finds nothing to recover, whatever the history. */
class LeaseSweepCostTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp()
            // swept by hand only, so nothing else issues statements meanwhile
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false");

    @Inject
    LeaseSweeper sweeper;

    @Inject
    MetadataSql sql;

    @Test
    void aSweepThatFindsNothingIsOneStatement() {
        // executions of other tests may have expired leases: sweep them first
        while (sweeper.sweep() > 0) {
            // recovering
        }
        long before = sql.statementsExecutedOnThisThread();
        assertEquals(0, sweeper.sweep());
        assertEquals(1, sql.statementsExecutedOnThisThread() - before);
    }
}
