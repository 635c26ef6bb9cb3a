package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.SimpleMeters.count;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.SimpleMeters;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobOperator;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With Micrometer, the kernel measures executions started, ended and active, and per step the items
 * read, written and skipped and the duration of each chunk's transaction.
 */
class KernelMetricsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class,
                    SimpleMeters.class))
            .overrideConfigKey("quarkus.micrometer.binder-enabled-default", "false");

    @Singleton
    static class Jobs {
        /** 25 rows in chunks of 10; the processor refuses every row whose id is 7 more than a multiple of 10. */
        @Produces
        JobDefinition measured() {
            return Job.named("measured").start(chunk("load", 10)
                    .reader(context -> new RangeReader(context.parameters().string("run"), 25))
                    .processor((KernelTestSupport.Row row) -> {
                        if (row.id() % 10 == 7) {
                            throw new IllegalArgumentException("refused " + row.id());
                        }
                        return row;
                    })
                    .writer(context -> items -> {
                    })
                    .skipLimit(IllegalArgumentException.class, 10)
                    .build()).build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    SimpleMeterRegistry meters;

    @Test
    void aJobsExecutionAndChunksAreMeasured() {
        assertEquals(ExecutionStatus.COMPLETED,
                operator.runAndWait("measured", KernelTestSupport.run(freshRun()), call()).status());

        assertEquals(1, count(meters, "durable.batch.executions.started", "job", "measured"));
        assertEquals(1, count(meters, "durable.batch.executions.ended", "job", "measured", "status", "COMPLETED"));
        assertEquals(0, meters.get("durable.batch.executions.active").gauge().value());
        assertEquals(25, count(meters, "durable.batch.items.read", "job", "measured", "step", "load"));
        assertEquals(23, count(meters, "durable.batch.items.written", "job", "measured", "step", "load"));
        assertEquals(2, count(meters, "durable.batch.items.skipped", "job", "measured", "step", "load"));
        Timer commits = meters.get("durable.batch.chunk.commit").tags("job", "measured", "step", "load").timer();
        assertEquals(3, commits.count(), "one per chunk");
    }
}
