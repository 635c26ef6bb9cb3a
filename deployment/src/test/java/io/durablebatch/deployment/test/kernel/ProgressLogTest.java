package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.logging.LogRecord;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobOperator;
import io.quarkus.test.QuarkusUnitTest;

/** A running step logs items, rate and ETA at the configured interval, and a summary at its end. */
class ProgressLogTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class))
            .overrideConfigKey("quarkus.durable-batch.progress.log-interval", "0s")
            .setLogRecordPredicate(record -> record.getLoggerName().endsWith("ProgressLog"))
            .assertLogRecords(ProgressLogTest::assertProgressLines);

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition logged() {
            return Job.named("logged").start(chunk("count", 100)
                    .reader(context -> new RangeReader(context.parameters().string("run"), 500))
                    .writer(context -> items -> {
                    })
                    .build()).build();
        }
    }

    @Inject
    JobOperator operator;

    @Test
    void eachIntervalLogsItemsRateAndEta() {
        assertEquals(ExecutionStatus.COMPLETED, operator.runAndWait("logged", KernelTestSupport.run(freshRun()), call())
                .status());
    }

    /** Checked once the application stopped, over everything {@code ProgressLog} logged. */
    static void assertProgressLines(List<LogRecord> records) {
        List<String> lines = records.stream().map(KernelTestSupport::logged).filter(m -> m.contains("'logged'")).toList();
        assertTrue(lines.stream().anyMatch(line -> line.matches(
                "Step 'count' of job 'logged' \\(execution \\d+\\): 100 read, 100 written, \\d+ items/s, 400 to go, ETA PT.*")),
                lines::toString);
        assertTrue(lines.stream().anyMatch(line -> line.matches(
                "Step 'count' of job 'logged' \\(execution \\d+\\): 500 read, 500 written, \\d+ items/s, input exhausted after PT.*")),
                lines::toString);
    }

}
