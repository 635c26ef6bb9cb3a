package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.context.StepContext;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.item.RestartableItemWriter;
import io.durablebatch.item.file.DelimitedFileItemReader;
import io.durablebatch.item.file.DelimitedFileItemWriter;
import io.durablebatch.item.file.FlatFileParseException;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.quarkus.test.QuarkusUnitTest;

/** Steps over files: a malformed CSV line, and a restartable file writer whose output is exactly once. */
class FileStepsTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class, FailingAfterWrite.class));

    /** Runs whose file writer fails after writing chunk 3 once (transiently) or chunk 6 (permanently). */
    static final Set<String> TRANSIENT_AT_CHUNK_3 = ConcurrentHashMap.newKeySet();
    static final Set<String> FAILING_AT_CHUNK_6 = ConcurrentHashMap.newKeySet();

    static DelimitedFileItemReader<Row> csv(StepContext context) {
        String run = context.parameters().string("run");
        return DelimitedFileItemReader.<Row> builder().path(Path.of(context.parameters().string("file"))).header(true)
                .mapper(fields -> new Row(run, fields.getLong("id"))).build();
    }

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        @Produces
        JobDefinition csvStrict() {
            return Job.named("csvStrict")
                    .start(chunk("import", 100).reader(FileStepsTest::csv).writer(context -> new TargetWriter(dataSource))
                            .build())
                    .build();
        }

        @Produces
        JobDefinition csvSkipping() {
            return Job.named("csvSkipping")
                    .start(chunk("import", 100).reader(FileStepsTest::csv).writer(context -> new TargetWriter(dataSource))
                            .skipLimit(FlatFileParseException.class, 1).build())
                    .build();
        }

        @Produces
        JobDefinition export() {
            return Job.named("export")
                    .start(chunk("export", 100)
                            .reader(context -> new RangeReader(context.parameters().string("run"), 1000))
                            .writer(context -> new FailingAfterWrite(context.parameters().string("run"),
                                    DelimitedFileItemWriter.<Row> builder().path(Path.of(context.parameters().string("file")))
                                            .header("id").extractor(row -> List.of(row.id())).build()))
                            .build())
                    .build();
        }
    }

    /** A restartable writer that fails after its delegate wrote (outside the transaction). */
    static final class FailingAfterWrite implements RestartableItemWriter<Row> {
        private final String run;
        private final DelimitedFileItemWriter<Row> delegate;

        FailingAfterWrite(String run, DelimitedFileItemWriter<Row> delegate) {
            this.run = run;
            this.delegate = delegate;
        }

        @Override
        public void open(Optional<Checkpoint> checkpoint) throws Exception {
            delegate.open(checkpoint);
        }

        @Override
        public void write(List<? extends Row> items) throws Exception {
            delegate.write(items);
            long first = items.get(0).id();
            if (first == 200 && TRANSIENT_AT_CHUNK_3.remove(run)) {
                throw new SQLException("lost connection", "08006");
            }
            if (first == 500 && FAILING_AT_CHUNK_6.contains(run)) {
                throw new IllegalStateException("disk full");
            }
        }

        @Override
        public Checkpoint checkpoint() {
            return delegate.checkpoint();
        }

        @Override
        public void close() throws Exception {
            delegate.close();
        }
    }

    static Path ordersFile(String malformedId) throws IOException {
        Path file = Files.createTempFile("orders", ".csv");
        List<String> lines = new ArrayList<>(List.of("id,amount"));
        LongStream.range(0, 1000).forEach(id -> lines.add((id == 500 ? malformedId : Long.toString(id)) + "," + id));
        Files.write(file, lines);
        return file;
    }

    StepExecution onlyStep(JobExecution execution) {
        return RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id())).get(0);
    }

    @Test
    void aMalformedCsvLineFailsTheStepNamingFileAndLine() throws Exception {
        String run = freshRun();
        Path file = ordersFile("5OO");
        JobExecution execution = operator.runAndWait("csvStrict",
                KernelTestSupport.run(run).with("file", file.toString()), call());
        assertEquals(ExecutionStatus.FAILED, execution.status());
        StepExecution step = onlyStep(execution);
        assertEquals(FlatFileParseException.class.getName(), step.failure().orElseThrow().type());
        assertTrue(step.failure().get().message().startsWith(file + ":502: "), step.failure().get().message());
        assertEquals(500, rows(dataSource, run), "the five chunks before the bad line committed");
    }

    @Test
    void aMalformedCsvLineIsSkippedWithinTheSkipLimit() throws Exception {
        String run = freshRun();
        Path file = ordersFile("5OO");
        JobExecution execution = operator.runAndWait("csvSkipping",
                KernelTestSupport.run(run).with("file", file.toString()), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        assertEquals(1, onlyStep(execution).counters().readSkipCount());
        assertEquals(999, rows(dataSource, run));
    }

    @Test
    void aRestartableWriterWritesEachItemOnceThroughRetriesFailuresAndRestarts() throws Exception {
        String run = freshRun();
        Path file = Files.createTempFile("export", ".csv");
        TRANSIENT_AT_CHUNK_3.add(run);
        FAILING_AT_CHUNK_6.add(run);
        JobExecution failed = operator.runAndWait("export", KernelTestSupport.run(run).with("file", file.toString()), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        assertEquals(1, onlyStep(failed).counters().rollbackCount() - 1, "chunk 3 was retried once, chunk 6 failed");
        FAILING_AT_CHUNK_6.remove(run);
        JobExecution restarted = operator.await(operator.restart(failed.id(), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        List<String> expected = new ArrayList<>(List.of("id"));
        LongStream.range(0, 1000).forEach(id -> expected.add(Long.toString(id)));
        assertEquals(expected, Files.readAllLines(file));
    }
}
