package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.distinctIds;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.opens;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/** Chunk-oriented steps: one transaction and one metadata statement per chunk, restart from the checkpoint. */
class ChunkStepTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class));

    /** The step thread's metadata statement count at each write of a run (the lease heartbeat runs on its own). */
    static final Map<String, List<Long>> STATEMENTS_AT_WRITE = new ConcurrentHashMap<>();

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        @Inject
        MetadataSql metadataSql;

        @Produces
        JobDefinition load() {
            TargetWriter target = new TargetWriter(dataSource);
            return Job.named("chunkLoad")
                    .start(chunk("load", 100)
                            .reader(context -> new RangeReader(context.parameters().string("run"),
                                    context.parameters().longValue("size")))
                            .writer(context -> (List<? extends Row> items) -> {
                                STATEMENTS_AT_WRITE.computeIfAbsent(items.get(0).run(), run -> new ArrayList<>())
                                        .add(metadataSql.statementsExecutedOnThisThread());
                                target.write(items);
                            })
                            .build())
                    .build();
        }
    }

    static JobParameters parameters(String run, long size) {
        return KernelTestSupport.run(run).with("size", size);
    }

    @Test
    void eachChunkIsOneTransactionWithOneMetadataStatement() throws SQLException {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("chunkLoad", parameters(run, 1000), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        assertEquals(1000, rows(dataSource, run));
        StepExecution step = RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id())).get(0);
        // ten chunks, then the commit that finds the input exhausted and completes the step
        assertEquals(new StepCounters(1000, 1000, 0, 0, 0, 0, 11, 0), step.counters());
        List<Long> atWrite = STATEMENTS_AT_WRITE.get(run);
        assertEquals(10, atWrite.size());
        for (int chunk = 1; chunk < atWrite.size(); chunk++) {
            assertEquals(1, atWrite.get(chunk) - atWrite.get(chunk - 1),
                    "metadata statements between the writes of chunks " + chunk + " and " + (chunk + 1));
        }
    }

    @Test
    void theLastChunkCommitsTheStepCompletion() throws SQLException {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("chunkLoad", parameters(run, 250), call());
        StepExecution step = RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id())).get(0);
        assertEquals(ExecutionStatus.COMPLETED, step.status());
        assertEquals(3, step.counters().commitCount(), "100 + 100 + 50 items: the last chunk also completes the step");
        assertEquals(250, rows(dataSource, run));
    }

    @Test
    void aFailedStepRestartsFromItsLastCommittedCheckpoint() throws SQLException {
        String run = freshRun();
        KernelTestSupport.WRITE_FAILURES.put(run, id -> id == 550);
        JobExecution failed = operator.runAndWait("chunkLoad", parameters(run, 1000), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution failedStep = RepositoryTestSupport.tx(() -> repository.stepExecutions(failed.id())).get(0);
        assertEquals(ExecutionStatus.FAILED, failedStep.status());
        assertEquals(500, rows(dataSource, run), "the five committed chunks stay, the failing one rolled back");
        assertEquals(new StepCounters(500, 500, 0, 0, 0, 0, 5, 1), failedStep.counters());
        assertTrue(failedStep.failure().orElseThrow().message().contains("injected failure at item 550"));

        KernelTestSupport.WRITE_FAILURES.remove(run);
        JobExecution restarted = operator.await(operator.restart(failed.id(), call()), java.time.Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(2, restarted.attempt());
        assertEquals(List.of("0", "500"), opens(run), "the restart reopened the reader at the committed checkpoint");
        StepExecution restartedStep = RepositoryTestSupport.tx(() -> repository.stepExecutions(restarted.id())).get(0);
        assertEquals(500, restartedStep.counters().readCount());
        assertEquals(1000, rows(dataSource, run));
        assertEquals(1000, distinctIds(dataSource, run));
    }

    @Test
    void aNewAttemptRecordsTheCheckpointItResumesBeforeItsFirstChunk() {
        String run = freshRun();
        KernelTestSupport.WRITE_FAILURES.put(run, id -> id == 250);
        JobExecution first = operator.runAndWait("chunkLoad", parameters(run, 1000), call());
        // the second attempt fails at once, in its first chunk: it must still carry checkpoint 200
        KernelTestSupport.WRITE_FAILURES.put(run, id -> id >= 200);
        JobExecution second = operator.await(operator.restart(first.id(), call()), java.time.Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.FAILED, second.status());
        StepExecution secondStep = RepositoryTestSupport.tx(() -> repository.stepExecutions(second.id())).get(0);
        assertEquals(200, java.nio.ByteBuffer.wrap(secondStep.checkpoint().map(Checkpoint::bytes).orElseThrow()).getLong());
        KernelTestSupport.WRITE_FAILURES.remove(run);
        JobExecution third = operator.await(operator.restart(second.id(), call()), java.time.Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, third.status());
        assertEquals(List.of("0", "200", "200"), opens(run));
    }
}
