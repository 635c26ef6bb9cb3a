package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.SimpleMeters.count;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.SimpleMeters;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.listener.StepListener;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The kernel retries through one mechanism, SmallRye Fault Tolerance's guards: a chunk's first retry
 * and a retry of the kernel's own bookkeeping are both counted by the guards' {@code ft.retry.*}
 * metrics, named by the guards' descriptions.
 */
class OneRetryMechanismTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class,
                    SimpleMeters.class))
            .overrideConfigKey("quarkus.micrometer.binder-enabled-default", "false");

    static final Map<String, AtomicInteger> WRITES = new ConcurrentHashMap<>();

    @Singleton
    static class Jobs {
        /**
         * One chunk whose first write fails as a serialization failure; the step listens after its
         * completion, so the job's end is recorded on its own, by the kernel's bookkeeping.
         */
        @Produces
        JobDefinition retriedOnce() {
            return Job.named("retriedOnce").start(chunk("load", 10)
                    .reader(context -> new RangeReader(context.parameters().string("run"), 5))
                    .writer(context -> (List<? extends Row> items) -> {
                        if (WRITES.computeIfAbsent(items.get(0).run(), run -> new AtomicInteger()).incrementAndGet() == 1) {
                            throw new SQLException("could not serialize access due to concurrent update", "40001");
                        }
                    })
                    .listener(new StepListener() {
                    })
                    .build()).build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    SimpleMeterRegistry meters;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RepositoryTables tables;

    @Test
    void aChunksFirstRetryAndABookkeepingRetryGoThroughTheGuards() throws SQLException {
        // the first update of this job's execution to COMPLETED fails as a serialization failure: a
        // sequence is not transactional, so the failed try leaves it advanced
        String table = tables.substitute("{p}job_execution");
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("DROP SEQUENCE IF EXISTS retried_end_tries");
            statement.execute("CREATE SEQUENCE retried_end_tries");
            statement.execute("""
                    CREATE OR REPLACE FUNCTION fail_first_retried_end() RETURNS trigger AS $$
                    BEGIN
                        IF NEW.status = 'COMPLETED' AND OLD.status <> 'COMPLETED'
                                AND nextval('retried_end_tries') = 1 THEN
                            RAISE EXCEPTION 'the end fails once, as the test asks' USING ERRCODE = '40001';
                        END IF;
                        RETURN NEW;
                    END $$ LANGUAGE plpgsql""");
            statement.execute("CREATE TRIGGER fail_first_retried_end BEFORE UPDATE ON " + table
                    + " FOR EACH ROW WHEN (NEW.job_name = 'retriedOnce') EXECUTE FUNCTION fail_first_retried_end()");
        }
        JobExecution execution;
        try {
            execution = operator.runAndWait("retriedOnce", KernelTestSupport.run(freshRun()), call());
        } finally {
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                statement.execute("DROP TRIGGER fail_first_retried_end ON " + table);
                statement.execute("DROP FUNCTION fail_first_retried_end()");
                statement.execute("DROP SEQUENCE retried_end_tries");
            }
        }

        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        assertEquals(1, count(meters, "ft.retry.retries.total", "method", "durable-batch.chunk"),
                "the chunk's first retry is the guard's");
        // at least: a version conflict with the heartbeat would be retried by the same guard
        assertTrue(count(meters, "ft.retry.retries.total", "method", "durable-batch.bookkeeping") >= 1,
                "the end's retry is the guard's");
    }
}
