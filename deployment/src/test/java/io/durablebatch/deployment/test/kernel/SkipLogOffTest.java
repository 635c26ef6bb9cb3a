package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.LogRecord;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.context.StepContext;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.listener.SkipListener;
import io.durablebatch.operator.JobOperator;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code quarkus.durable-batch.skips.log=false} the kernel's skip log is off: {@link SkipLogTest}'s
 * job (of the numbers 1 to 20, 3 cannot be read, 8 cannot be processed, the writer refuses 14) logs
 * no skip at WARN, the step's summary at INFO stays, and the application's skip listener still
 * hears each skip.
 */
class SkipLogOffTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class,
                    SkipLogTest.class, SkipLogTest.Jobs.class, Reporter.class))
            .overrideConfigKey("quarkus.durable-batch.skips.log", "false")
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.durablebatch"))
            .assertLogRecords(SkipLogOffTest::assertNoSkipLines);

    static final Queue<String> REPORTED = new ConcurrentLinkedQueue<>();

    /** The application's own skip report. */
    @Singleton
    static class Reporter implements SkipListener {
        @Override
        public void onSkipInRead(StepContext step, Exception failure) {
            REPORTED.add("read: " + failure.getMessage());
        }

        @Override
        public void onSkipInProcess(StepContext step, Object item, Exception failure) {
            REPORTED.add("process " + item + ": " + failure.getMessage());
        }

        @Override
        public void onSkipInWrite(StepContext step, Object item, Exception failure) {
            REPORTED.add("write " + item + ": " + failure.getMessage());
        }
    }

    @Inject
    JobOperator operator;

    @Test
    void theApplicationsListenerHearsTheSkips() {
        assertEquals(ExecutionStatus.COMPLETED,
                operator.runAndWait("skipLogged", KernelTestSupport.run(freshRun()), call()).status());
        assertEquals(List.of("read: line 3 is malformed", "process 8: cannot process 8", "write 14: refuses 14"),
                List.copyOf(REPORTED));
    }

    /** Checked once the application stopped. */
    static void assertNoSkipLines(List<LogRecord> records) {
        assertEquals(List.of(), records.stream().filter(record -> record.getLoggerName().equals("io.durablebatch.skips"))
                .map(KernelTestSupport::logged).toList());
        assertTrue(records.stream().map(KernelTestSupport::logged)
                .anyMatch(line -> line.startsWith("Step 'load' of job 'skipLogged'") && line.contains("skipped 3 item(s)")),
                "the summary stays");
    }
}
