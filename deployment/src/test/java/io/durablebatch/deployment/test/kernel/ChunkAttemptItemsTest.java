package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.context.StepContext;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.item.ItemProcessor;
import io.durablebatch.item.ItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobParameters;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A chunk step's processor created per step attempt ({@code attemptProcessor}), the reader's
 * checkpoint asked for once the chunk was written, inside the chunk's transaction, and the one it
 * gives at a failure ({@code checkpointAtFailure}) recorded by the failed attempt.
 */
class ChunkAttemptItemsTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class, CountingReader.class, NumberingProcessor.class));

    /** What each run's reader, processor and writer did, in order. */
    static final Map<String, List<String>> EVENTS = new ConcurrentHashMap<>();
    /** The processors each run's attempts were given. */
    static final Map<String, List<NumberingProcessor>> PROCESSORS = new ConcurrentHashMap<>();

    static List<String> events(String run) {
        return EVENTS.computeIfAbsent(run, r -> java.util.Collections.synchronizedList(new ArrayList<>()));
    }

    /** Reads 0..size-1; its checkpoint is the next number, and each ask of it is an event. */
    static final class CountingReader implements ItemReader<Long> {
        private final String run;
        private final long size;
        private long next;

        CountingReader(String run, long size) {
            this.run = run;
            this.size = size;
        }

        @Override
        public void open(Optional<Checkpoint> checkpoint) {
            ByteBuffer bytes = ByteBuffer.wrap(checkpoint.map(Checkpoint::bytes).orElse(new byte[Long.BYTES]));
            next = bytes.getLong();
            events(run).add("open@" + next + (bytes.hasRemaining() ? " failures=" + bytes.getLong() : ""));
        }

        /** Keeps the committed position and counts the failed attempts beside it. */
        @Override
        public Optional<Checkpoint> checkpointAtFailure(Optional<Checkpoint> committed) {
            ByteBuffer bytes = ByteBuffer.wrap(committed.map(Checkpoint::bytes).orElse(new byte[Long.BYTES]));
            long position = bytes.getLong();
            long failures = bytes.hasRemaining() ? bytes.getLong() : 0;
            return Optional.of(Checkpoint.of(ByteBuffer.allocate(2 * Long.BYTES).putLong(position).putLong(failures + 1)
                    .array()));
        }

        @Override
        public Long read() {
            return next < size ? next++ : null;
        }

        @Override
        public Checkpoint checkpoint() {
            events(run).add("checkpoint@" + next);
            return Checkpoint.of(ByteBuffer.allocate(Long.BYTES).putLong(next).array());
        }
    }

    /** Keeps state across the items of its attempt: how many it processed. */
    static final class NumberingProcessor implements ItemProcessor<Long, Long> {
        long processed;

        @Override
        public Long process(Long item) {
            processed++;
            return item;
        }
    }

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition attempts() {
            return Job.named("chunkAttemptItems")
                    .start(chunk("numbers", 2)
                            .reader(context -> new CountingReader(run(context), context.parameters().longValue("size")))
                            .commitInterval(context -> context.parameters().get("interval").isPresent()
                                    ? (int) context.parameters().longValue("interval")
                                    : 2)
                            .attemptProcessor(context -> {
                                NumberingProcessor processor = new NumberingProcessor();
                                PROCESSORS.computeIfAbsent(run(context), r -> new java.util.concurrent.CopyOnWriteArrayList<>())
                                        .add(processor);
                                return processor;
                            })
                            .writer(context -> items -> {
                                events(run(context)).add("write" + items);
                                if (context.parameters().get("failAt").isPresent()
                                        && items.contains(context.parameters().longValue("failAt"))) {
                                    throw new IllegalStateException("writer refuses " + items);
                                }
                            })
                            .build())
                    .build();
        }

        private static String run(StepContext context) {
            return context.parameters().string("run");
        }
    }

    @Test
    void theReaderCheckpointIsAskedOnceTheChunkWasWritten() {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("chunkAttemptItems",
                KernelTestSupport.run(run).with("size", 5L), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        assertEquals(List.of("open@0", "write[0, 1]", "checkpoint@2", "write[2, 3]", "checkpoint@4", "write[4]",
                "checkpoint@5"), events(run), "each chunk's checkpoint follows its write, and is asked once");
    }

    @Test
    void eachAttemptGetsAProcessorOfItsOwnAndAFailedOneRecordsTheReadersCheckpointAtFailure() {
        String run = freshRun();
        JobParameters failing = KernelTestSupport.run(run).with("size", 6L).withNonIdentifying("failAt", 3L);
        JobExecution failed = operator.runAndWait("chunkAttemptItems", failing, call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        io.durablebatch.execution.StepExecution failedStep = RepositoryTestSupport
                .tx(() -> repository.stepExecutions(failed.id())).get(0);
        assertEquals(16, failedStep.checkpoint().orElseThrow().length(),
                "the failed attempt recorded the reader's checkpoint at failure");
        JobExecution restarted = operator.await(operator.restart(failed.id(),
                io.durablebatch.execution.ExecutionParameters.of(Map.of()), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("open@0", "open@2 failures=1"),
                events(run).stream().filter(event -> event.startsWith("open")).toList(),
                "the restart resumed the committed position with what the reader kept at the failure");
        List<NumberingProcessor> processors = PROCESSORS.get(run);
        assertEquals(2, processors.size(), "one processor per step attempt");
        assertNotSame(processors.get(0), processors.get(1));
        // the first attempt processed 0..3 (the chunk 2,3 rolled back), the restart 2..5
        assertEquals(4, processors.get(0).processed);
        assertEquals(4, processors.get(1).processed);
    }

    @Test
    void eachAttemptMayHaveACommitIntervalOfItsOwn() {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("chunkAttemptItems",
                KernelTestSupport.run(run).with("size", 5L).withNonIdentifying("interval", 3L), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        assertEquals(List.of("open@0", "write[0, 1, 2]", "checkpoint@3", "write[3, 4]", "checkpoint@5"), events(run));
    }

    @Test
    void anAttemptWhoseCommitIntervalIsNotPositiveFails() {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("chunkAttemptItems",
                KernelTestSupport.run(run).with("size", 5L).withNonIdentifying("interval", 0L), call());
        assertEquals(ExecutionStatus.FAILED, execution.status());
        io.durablebatch.execution.StepExecution step = RepositoryTestSupport
                .tx(() -> repository.stepExecutions(execution.id())).get(0);
        assertTrue(step.failure().orElseThrow().message().contains("commit interval of step 'numbers'"),
                step.failure().orElseThrow().message());
        assertEquals(List.of(), events(run), "nothing was opened");
    }
}
