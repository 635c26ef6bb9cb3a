package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.logging.LogRecord;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logmanager.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The production default of the lines logged per execution (issue 29: they cost a twentieth of a
 * short launch's CPU at INFO): a first attempt's start and a completion at DEBUG, a restart's start
 * and any end but COMPLETED at INFO.
 */
class ExecutionLogLevelsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class))
            .overrideConfigKey("quarkus.log.category.\"io.durablebatch.runtime.job.ExecutionRunner\".level", "DEBUG")
            .setLogRecordPredicate(record -> record.getLoggerName().equals("io.durablebatch.runtime.job.ExecutionRunner"))
            .assertLogRecords(ExecutionLogLevelsTest::assertLevels);

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition quiet() {
            return Job.named("quiet").start(tasklet("only", context -> RepeatStatus.FINISHED)).build();
        }

        @Produces
        JobDefinition loud() {
            return Job.named("loud").start(tasklet("only", context -> {
                throw new IllegalStateException("fails every attempt");
            })).build();
        }
    }

    @Inject
    JobOperator operator;

    @Test
    void routineLinesAtDebugTheRestAtInfo() {
        assertEquals(ExecutionStatus.COMPLETED,
                operator.runAndWait("quiet", KernelTestSupport.run(freshRun()), call()).status());
        JobExecution failed = operator.runAndWait("loud", KernelTestSupport.run(freshRun()), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        JobExecution again = operator.await(operator.restart(failed.id(), call()), Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.FAILED, again.status());
    }

    /** Checked once the application stopped. */
    static void assertLevels(List<LogRecord> records) {
        assertEquals(Level.DEBUG, level(records, "Job 'quiet' execution \\d+ \\(attempt 1\\) started"));
        assertEquals(Level.DEBUG, level(records, "Job 'quiet' execution \\d+ ended COMPLETED.*"));
        assertEquals(Level.DEBUG, level(records, "Job 'loud' execution \\d+ \\(attempt 1\\) started"));
        assertEquals(Level.INFO, level(records, "Job 'loud' execution \\d+ \\(attempt 2\\) started"));
        List<java.util.logging.Level> failedEnds = records.stream()
                .filter(record -> KernelTestSupport.logged(record).matches("Job 'loud' execution \\d+ ended FAILED.*"))
                .map(LogRecord::getLevel).toList();
        assertEquals(List.of(Level.INFO, Level.INFO), failedEnds, "both failed ends at INFO");
    }

    private static java.util.logging.Level level(List<LogRecord> records, String line) {
        List<java.util.logging.Level> levels = records.stream()
                .filter(record -> KernelTestSupport.logged(record).matches(line)).map(LogRecord::getLevel).toList();
        assertEquals(1, levels.size(), () -> "one line " + line + ", got "
                + records.stream().map(KernelTestSupport::logged).toList());
        return levels.get(0);
    }
}
