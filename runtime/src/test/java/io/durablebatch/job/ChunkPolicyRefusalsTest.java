package io.durablebatch.job;

import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.ItemReader;

/** The rules of exception filters and the refusals of bad chunk policies, each with its message. */
class ChunkPolicyRefusalsTest {

    static final ItemReader<String> NOTHING = new ItemReader<>() {
        @Override
        public void open(Optional<Checkpoint> checkpoint) {
        }

        @Override
        public String read() {
            return null;
        }

        @Override
        public Checkpoint checkpoint() {
            return Checkpoint.of(new byte[0]);
        }
    };

    static ChunkStep.Builder<String, String> step() {
        return chunk("load", 10).<String> reader(context -> NOTHING).writer(context -> items -> {
        });
    }

    @Test
    void theNearestListedClassDecides() {
        ExceptionFilter filter = ExceptionFilter.including(RuntimeException.class, UncheckedIOException.class)
                .excluding(IllegalStateException.class, IllegalArgumentException.class);
        assertTrue(filter.matches(new RuntimeException()));
        assertTrue(filter.matches(new UnsupportedOperationException()), "a subclass of an included class");
        assertFalse(filter.matches(new IllegalStateException()), "excluded, nearer than RuntimeException");
        assertFalse(filter.matches(new NumberFormatException()), "a subclass of an excluded class");
        assertTrue(filter.excludes(new NumberFormatException()));
        assertTrue(filter.matches(new UncheckedIOException(new IOException())));
        assertFalse(filter.matches(new IOException()), "not a subclass of anything listed");
        assertFalse(filter.excludes(new IOException()));
        assertFalse(ExceptionFilter.NONE.matches(new RuntimeException()));
        assertTrue(ExceptionFilter.NONE.isEmpty());
    }

    @Test
    void aMoreSpecificIncludeWinsOverAnExclude() {
        ExceptionFilter filter = ExceptionFilter.including(Exception.class, NumberFormatException.class)
                .excluding(IllegalArgumentException.class);
        assertTrue(filter.matches(new NumberFormatException()));
        assertFalse(filter.matches(new IllegalArgumentException()));
    }

    @Test
    void aClassListedTwiceIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ExceptionFilter.including(RuntimeException.class).excluding(RuntimeException.class));
        assertEquals("exception class java.lang.RuntimeException is listed twice in an exception filter (included "
                + "[java.lang.RuntimeException], excluded [java.lang.RuntimeException])", refused.getMessage());
    }

    @Test
    void aNullClassIsRefused() {
        assertEquals("included class must not be null", assertThrows(IllegalArgumentException.class,
                () -> ExceptionFilter.including((Class<? extends Throwable>) null)).getMessage());
    }

    @Test
    void negativeLimitsAreRefused() {
        assertEquals("skip limit of step 'load' must not be negative, got -1",
                assertThrows(IllegalArgumentException.class, () -> step().skipLimit(-1)).getMessage());
        assertEquals("retry limit of step 'load' must not be negative, got -2",
                assertThrows(IllegalArgumentException.class, () -> step().retryLimit(-2)).getMessage());
    }

    @Test
    void aTimeLimitMustBePositive() {
        assertEquals("time limit must be positive, got PT0S",
                assertThrows(IllegalArgumentException.class, () -> step().timeLimit(Duration.ZERO)).getMessage());
        assertEquals("time limit must be positive, got PT-1S",
                assertThrows(IllegalArgumentException.class, () -> step().timeLimit(Duration.ofSeconds(-1)))
                        .getMessage());
    }

    @Test
    void aTimeLimitBesideACheckpointAlgorithmIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> step().timeLimit(Duration.ofSeconds(5)).checkpointAlgorithm(context -> () -> true));
        assertEquals("a checkpoint algorithm decides alone where chunks end: a time limit beside it would never apply",
                refused.getMessage());
    }

    @Test
    void anAttemptsTimeLimitBesideACheckpointAlgorithmIsRefused() {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> step()
                .timeLimit(context -> Duration.ofSeconds(5)).checkpointAlgorithm(context -> () -> true).build());
        assertEquals("step 'load' has a checkpoint algorithm, which decides alone where chunks end: a time limit "
                + "beside it would never apply", refused.getMessage());
    }

    @Test
    void eachAttemptsLimitsAreCarriedThroughTheBuilderAndAWrittenOneReplacesThem() {
        // the functions do not read the context: no attempt is needed to ask them
        ChunkStep<String, Integer> step = chunk("load", 10).<String> reader(context -> NOTHING)
                .skipLimit(3).skipLimit(context -> 7).retryLimit(context -> 8).timeLimit(context -> Duration.ZERO)
                .processor(String::length)
                .writer(context -> items -> {
                }).build();
        assertEquals(3, step.skipPolicy().limit().getAsInt(), "the declared limit");
        ChunkStep.AttemptPolicies attempt = step.attemptPolicies(null);
        assertEquals(7, attempt.skip().limit().getAsInt(), "the attempt's");
        assertEquals(8, attempt.retry().limit().getAsInt());
        assertEquals(Optional.empty(), attempt.checkpoint().timeLimit(), "zero is no time limit");
        assertEquals(10, attempt.commitInterval(), "the declared one, as no function gives another");
        ChunkStep<String, String> written = chunk("load", 10).<String> reader(context -> NOTHING)
                .skipLimit(context -> 7).skipLimit(2).writer(context -> items -> {
                }).build();
        assertEquals(2, written.attemptPolicies(null).skip().limit().getAsInt(), "the last one given decides");
    }

    @Test
    void noRollbackExceptionsWithoutRetryableOnesAreRefused() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> step().noRollback(ExceptionFilter.including(RuntimeException.class)).build());
        assertEquals("step 'load' lists no-rollback exceptions but no retryable ones: only a retried exception can be "
                + "retried without rollback", refused.getMessage());
    }

    @Test
    void thePoliciesAreKeptAndCarriedThroughTheBuilder() {
        ExceptionFilter skippable = ExceptionFilter.including(IllegalArgumentException.class);
        ExceptionFilter retryable = ExceptionFilter.including(IllegalStateException.class);
        ChunkStep<String, Integer> step = chunk("load", 10).<String> reader(context -> NOTHING)
                .skippable(skippable).skipLimit(3).retryable(retryable).noRollback(retryable).retryLimit(2)
                .timeLimit(Duration.ofSeconds(4))
                .processor(String::length)
                .writer(context -> items -> {
                }).build();
        assertEquals(skippable, step.skipPolicy().skippable());
        assertEquals(3, step.skipPolicy().limit().getAsInt());
        assertEquals(retryable, step.retryPolicy().retryable());
        assertEquals(retryable, step.retryPolicy().noRollback());
        assertEquals(2, step.retryPolicy().limit().getAsInt());
        assertEquals(Optional.of(Duration.ofSeconds(4)), step.checkpointPolicy().timeLimit());
        assertEquals(List.of(), ExceptionFilter.NONE.included());
        ChunkStep<String, Integer> renamed = step.withId("other");
        assertEquals(step.retryPolicy(), renamed.retryPolicy());
    }
}
