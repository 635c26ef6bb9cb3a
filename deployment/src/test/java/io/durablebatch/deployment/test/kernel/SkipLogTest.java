package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.stream.IntStream;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.support.ListItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobOperator;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Skips are logged: each committed skip once at WARN (the item and the reason), and the step's
 * skips summarised at INFO when it completes. A chunk the writer refused and that was rolled back
 * and scanned logs its skip once.
 */
class SkipLogTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class))
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.durablebatch"))
            .assertLogRecords(SkipLogTest::assertSkipLines);

    @Singleton
    static class Jobs {
        /** Of the numbers 1 to 20, 3 cannot be read, 8 cannot be processed and the writer refuses 14. */
        @Produces
        JobDefinition skipLogged() {
            return Job.named("skipLogged").start(chunk("load", 5)
                    .reader(context -> unreadableThree())
                    .processor((Integer n) -> {
                        if (n == 8) {
                            throw new IllegalArgumentException("cannot process 8");
                        }
                        return n;
                    })
                    .writer(context -> (List<? extends Integer> items) -> {
                        if (items.contains(14)) {
                            throw new IllegalArgumentException("refuses 14");
                        }
                    })
                    .skipLimit(IllegalStateException.class, 5)
                    .skipLimit(IllegalArgumentException.class, 5)
                    .build()).build();
        }
    }

    static ItemReader<Integer> unreadableThree() {
        ListItemReader<Integer> numbers = ListItemReader.of(IntStream.rangeClosed(1, 20).boxed().toList());
        return new ItemReader<>() {
            @Override
            public void open(Optional<Checkpoint> checkpoint) throws Exception {
                numbers.open(checkpoint);
            }

            @Override
            public Integer read() throws Exception {
                Integer n = numbers.read();
                if (n != null && n == 3) {
                    throw new IllegalStateException("line 3 is malformed");
                }
                return n;
            }

            @Override
            public Checkpoint checkpoint() {
                return numbers.checkpoint();
            }
        };
    }

    @Inject
    JobOperator operator;

    @Test
    void theStepSkipsThreeItems() {
        assertEquals(ExecutionStatus.COMPLETED,
                operator.runAndWait("skipLogged", KernelTestSupport.run(freshRun()), call()).status());
    }

    /** Checked once the application stopped. */
    static void assertSkipLines(List<LogRecord> records) {
        List<String> warnings = records.stream().filter(record -> record.getLevel().intValue() == Level.WARNING.intValue())
                .map(KernelTestSupport::logged).filter(line -> line.contains("'skipLogged'")).toList();
        assertEquals(3, warnings.size(), () -> "one line per skip: " + warnings);
        assertTrue(warnings.get(0).matches("Job 'skipLogged' execution \\d+, step 'load': skipped "
                + "java.lang.IllegalStateException: line 3 is malformed"), warnings.get(0));
        assertTrue(warnings.get(1).endsWith("step 'load': skipped 8 (java.lang.IllegalArgumentException: cannot process 8)"),
                warnings.get(1));
        assertTrue(warnings.get(2).endsWith("step 'load': skipped 14 (java.lang.IllegalArgumentException: refuses 14)"),
                warnings.get(2));

        List<String> summaries = records.stream().filter(record -> record.getLevel().intValue() == Level.INFO.intValue())
                .map(KernelTestSupport::logged)
                .filter(line -> line.startsWith("Step 'load' of job 'skipLogged'") && line.contains(" item(s): ")).toList();
        assertEquals(1, summaries.size(), summaries::toString);
        assertTrue(summaries.get(0).matches("Step 'load' of job 'skipLogged' \\(execution \\d+\\) skipped 3 item\\(s\\): "
                + "1 unreadable, 1 refused by the processor, 1 by the writer; the first: "
                + "java.lang.IllegalStateException: line 3 is malformed; 8 \\(.*\\); 14 \\(.*\\)"), summaries.get(0));
    }

}
