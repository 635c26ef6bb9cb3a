package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A failed execution logs one ERROR line that names its job, execution and step, with the cause and
 * its stack; its end line names the failure without a stack.
 */
class FailureLogTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class))
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.durablebatch.runtime.job"))
            .assertLogRecords(FailureLogTest::assertOneErrorPerFailure);

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition failingWriter() {
            return Job.named("failingWriter").start(chunk("load", 10)
                    .reader(context -> new RangeReader(context.parameters().string("run"), 50))
                    .writer(context -> items -> {
                        throw new IllegalStateException("the writer broke");
                    })
                    .build()).build();
        }

        @Produces
        JobDefinition failingTasklet() {
            return Job.named("failingTasklet").start(tasklet("report", context -> {
                throw new IllegalArgumentException("the tasklet broke");
            })).next(tasklet("never", context -> RepeatStatus.FINISHED)).build();
        }
    }

    @Inject
    JobOperator operator;

    @Test
    void aFailedStepFailsItsExecution() {
        for (String job : List.of("failingWriter", "failingTasklet")) {
            assertEquals(ExecutionStatus.FAILED, operator.runAndWait(job, KernelTestSupport.run(freshRun()), call()).status());
        }
    }

    /** Checked once the application stopped; each job ran once, and failed. */
    static void assertOneErrorPerFailure(List<LogRecord> records) {
        for (String job : List.of("failingWriter", "failingTasklet")) {
            String step = job.equals("failingWriter") ? "load" : "report";
            String cause = job.equals("failingWriter") ? "the writer broke" : "the tasklet broke";
            List<LogRecord> errors = records.stream().filter(record -> record.getLevel().intValue() >= Level.SEVERE.intValue())
                    .filter(record -> KernelTestSupport.logged(record).contains("'" + job + "'")).toList();
            assertEquals(1, errors.size(),
                    () -> job + ": one ERROR line, not " + errors.stream().map(KernelTestSupport::logged).toList());
            Matcher error = Pattern.compile("Job '" + job + "' execution (\\d+) failed in step '" + step
                    + "' \\(step execution \\d+\\)").matcher(KernelTestSupport.logged(errors.get(0)));
            assertTrue(error.matches(), KernelTestSupport.logged(errors.get(0)));
            assertEquals(cause, errors.get(0).getThrown().getMessage(), "the cause, with its stack");
            assertTrue(errors.get(0).getThrown().getStackTrace().length > 0);

            String end = "Job '" + job + "' execution " + error.group(1) + " ended FAILED";
            List<LogRecord> ends = records.stream().filter(record -> KernelTestSupport.logged(record).startsWith(end)).toList();
            assertEquals(1, ends.size(), job + ": one end line");
            assertTrue(KernelTestSupport.logged(ends.get(0)).contains(cause), KernelTestSupport.logged(ends.get(0)));
            assertNull(ends.get(0).getThrown(), "the end line carries no second stack");
        }
    }

}
