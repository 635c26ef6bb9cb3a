package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.distinctIds;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
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
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.item.ItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.SkipLimitExceededException;
import io.quarkus.test.QuarkusUnitTest;

/** Skip limits per exception type (read, process, write) and retry of transient chunk failures. */
class SkipAndRetryTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class, MalformedItemException.class));

    /** A reader's refusal of one record; the reader has moved past it. */
    static class MalformedItemException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MalformedItemException(String message) {
            super(message);
        }
    }

    /** How many times the writer saw each run's chunk that starts at id 200. */
    static final Map<String, AtomicInteger> TRANSIENT_ATTEMPTS = new ConcurrentHashMap<>();

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        /** Items whose id ends in 7 are malformed; items divisible by 100 cannot be processed. */
        @Produces
        JobDefinition skipping() {
            return Job.named("skipping")
                    .start(chunk("load", 50)
                            .reader(context -> malformedEverySeventh(new RangeReader(context.parameters().string("run"), 1000)))
                            .processor((Row row) -> {
                                if (row.id() % 100 == 0) {
                                    throw new IllegalArgumentException("cannot process " + row.id());
                                }
                                return row.id() % 10 == 3 ? null : row;
                            })
                            .writer(context -> new TargetWriter(dataSource))
                            .skipLimit(MalformedItemException.class, 100)
                            .skipLimit(RuntimeException.class, 10)
                            .build())
                    .build();
        }

        @Produces
        JobDefinition tightlySkipping() {
            return Job.named("tightlySkipping")
                    .start(chunk("load", 50)
                            .reader(context -> new RangeReader(context.parameters().string("run"), 1000))
                            .processor((Row row) -> {
                                if (row.id() % 100 == 0) {
                                    throw new IllegalArgumentException("cannot process " + row.id());
                                }
                                return row;
                            })
                            .writer(context -> new TargetWriter(dataSource))
                            .skipLimit(IllegalArgumentException.class, 5)
                            .build())
                    .build();
        }

        @Produces
        JobDefinition writeSkipping() {
            return Job.named("writeSkipping")
                    .start(chunk("load", 100)
                            .reader(context -> new RangeReader(context.parameters().string("run"), 1000))
                            .writer(context -> new TargetWriter(dataSource))
                            .skipLimit(BatchUpdateException.class, 3)
                            .build())
                    .build();
        }

        @Produces
        JobDefinition retrying() {
            TargetWriter target = new TargetWriter(dataSource);
            return Job.named("retrying")
                    .start(chunk("load", 100)
                            .reader(context -> new RangeReader(context.parameters().string("run"), 1000))
                            .writer(context -> (java.util.List<? extends Row> items) -> {
                                // the whole chunk is written, then the first attempt of chunk 3 fails transiently
                                target.write(items);
                                Row first = items.get(0);
                                if (first.id() == 200) {
                                    int attempt = TRANSIENT_ATTEMPTS.computeIfAbsent(first.run(), run -> new AtomicInteger())
                                            .incrementAndGet();
                                    if (attempt <= Integer.parseInt(first.run().substring(0, 1), 16) % 2 + 1) {
                                        throw new SQLException("could not serialize access due to concurrent update",
                                                "40001");
                                    }
                                }
                            })
                            .retry(2, Duration.ofMillis(10), Duration.ofMillis(50))
                            .build())
                    .build();
        }
    }

    static ItemReader<Row> malformedEverySeventh(RangeReader range) {
        return new ItemReader<>() {
            @Override
            public void open(java.util.Optional<Checkpoint> checkpoint) {
                range.open(checkpoint);
            }

            @Override
            public Row read() {
                Row row = range.read();
                if (row != null && row.id() % 10 == 7) {
                    throw new MalformedItemException("malformed record " + row.id());
                }
                return row;
            }

            @Override
            public Checkpoint checkpoint() {
                return range.checkpoint();
            }
        };
    }

    StepExecution onlyStep(JobExecution execution) {
        return RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id())).get(0);
    }

    @Test
    void skipsCountAgainstTheMostSpecificConfiguredType() throws SQLException {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("skipping", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        // 100 ids end in 7 (read skips, limit 100), 10 are multiples of 100 (process skips, limit 10),
        // 100 end in 3 (filtered): 1000 - 100 read, 10 skipped, 100 filtered, 790 written
        StepCounters counters = onlyStep(execution).counters();
        assertEquals(900, counters.readCount());
        assertEquals(100, counters.readSkipCount());
        assertEquals(10, counters.processSkipCount());
        assertEquals(100, counters.filterCount());
        assertEquals(790, counters.writeCount());
        assertEquals(790, rows(dataSource, run));
    }

    @Test
    void exceedingASkipLimitFailsTheStep() throws SQLException {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("tightlySkipping", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, execution.status());
        StepExecution step = onlyStep(execution);
        assertEquals(SkipLimitExceededException.class.getName(), step.failure().orElseThrow().type());
        assertTrue(step.failure().get().message().startsWith("step 'load' exceeded its skip limit of 5 for "
                + IllegalArgumentException.class.getName()), step.failure().get().message());
        // the skipped exception's type is named once, not again by its toString()
        assertEquals(1, step.failure().get().message().split(IllegalArgumentException.class.getName(), -1).length - 1,
                step.failure().get().message());
        // the sixth skip (id 500) is in the 11th chunk: ten chunks committed with 5 skips
        assertEquals(5, step.counters().processSkipCount());
        assertEquals(495, rows(dataSource, run));
    }

    @Test
    void aWriteSkipFindsTheRefusedItemAndCommitsTheChunkOnceWithoutIt() throws SQLException {
        String run = freshRun();
        // a real constraint violation: ids 150 and 420 already exist
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO kernel_target (run, id, payload) VALUES (?, ?, 'there first')")) {
            for (long id : new long[] { 150, 420 }) {
                insert.setString(1, run);
                insert.setLong(2, id);
                insert.executeUpdate();
            }
        }
        JobExecution execution = operator.runAndWait("writeSkipping", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepCounters counters = onlyStep(execution).counters();
        assertEquals(2, counters.writeSkipCount());
        assertEquals(998, counters.writeCount());
        assertEquals(2, counters.rollbackCount(), "each refused chunk rolled back once before it was scanned");
        assertEquals(11, counters.commitCount());
        assertEquals(1000, rows(dataSource, run));
        assertEquals(1000, distinctIds(dataSource, run));
    }

    @Test
    void aTransientFailureReRunsTheWholeChunkTransaction() throws SQLException {
        // the run id's first hex digit decides whether chunk 3 fails once or twice: both are within the limit
        String run = freshRun();
        int failures = Integer.parseInt(run.substring(0, 1), 16) % 2 + 1;
        JobExecution execution = operator.runAndWait("retrying", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        assertEquals(failures + 1, TRANSIENT_ATTEMPTS.get(run).get());
        StepCounters counters = onlyStep(execution).counters();
        assertEquals(failures, counters.rollbackCount());
        assertEquals(1000, counters.writeCount());
        assertEquals(1000, rows(dataSource, run), "the rolled-back attempts left no row behind");
        assertEquals(1000, distinctIds(dataSource, run));
    }

    @Test
    void aTransientFailureBeyondTheRetryLimitFailsTheStepKeepingTheCheckpoint() throws SQLException {
        String run = freshRun();
        KernelTestSupport.WRITE_FAILURES.put(run, id -> id == 650);
        KernelTestSupport.WRITE_FAILURE_TYPE.put(run, new SQLException("deadlock detected", "40P01"));
        JobExecution execution = operator.runAndWait("retrying", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, execution.status());
        StepExecution step = onlyStep(execution);
        // chunk 3 rolled back once or twice before it committed; chunk 7 rolled back three times
        int chunk3Failures = Integer.parseInt(run.substring(0, 1), 16) % 2 + 1;
        assertEquals(chunk3Failures + 3, step.counters().rollbackCount(), "the first attempt and two retries rolled back");
        assertEquals(600, rows(dataSource, run));
        assertTrue(step.failure().orElseThrow().message().contains("deadlock detected"));
    }

}
