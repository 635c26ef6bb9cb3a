package io.durablebatch.runtime.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;

import io.durablebatch.job.ChunkStep;

/**
 * The kernel's one retry mechanism: the first try outside the guard must not change what is retried,
 * how often, or how long the tries wait; a budget ends the tries of the kernel's bookkeeping.
 */
class UnitOfWorkRetryTest {

    private static final SQLException LOST_CONNECTION = new SQLException("connection lost", "08006");

    private final List<Throwable> retried = new ArrayList<>();
    private final List<Long> triedAt = new ArrayList<>();

    private UnitOfWorkRetry retry(int limit, long initialMillis, long maxMillis) {
        return new UnitOfWorkRetry("test", new ChunkStep.Retry(limit, Duration.ofMillis(initialMillis),
                Duration.ofMillis(maxMillis)), retried::add);
    }

    /** Fails transiently {@code failures} times, then returns "done". */
    private Callable<String> failing(int failures) {
        return () -> {
            triedAt.add(System.nanoTime());
            if (triedAt.size() <= failures) {
                throw LOST_CONNECTION;
            }
            return "done";
        };
    }

    @Test
    void aFirstTryThatSucceedsRunsOnce() throws Exception {
        assertEquals("done", retry(3, 1, 10).call(failing(0), String.class));
        assertEquals(1, triedAt.size());
        assertTrue(retried.isEmpty());
    }

    /** Issue 29: building a guard cost a step run as much as a launch's statement; most never need one. */
    @Test
    void aFirstTryThatSucceedsBuildsNoGuardAndAFailureBuildsOne() throws Exception {
        UnitOfWorkRetry retry = retry(3, 1, 10);
        retry.call(failing(0), String.class);
        assertFalse(retry.guardBuilt(), "a guard built for a first try that succeeded");
        triedAt.clear();
        assertEquals("done", retry.call(failing(1), String.class));
        assertTrue(retry.guardBuilt());
        assertEquals(2, triedAt.size());
    }

    /**
     * Issue 29: the bookkeeping retry is built with the kernel's beans at startup, and a one-shot run may never
     * call it; a budget counts the first try too, so its first call builds the guard.
     */
    @Test
    void aBudgetBuildsItsGuardAtItsFirstCall() throws Exception {
        UnitOfWorkRetry budget = UnitOfWorkRetry.forBudget("test", Duration.ofSeconds(1), failure -> true,
                Duration.ZERO, Duration.ZERO, failure -> true, failure -> {
                });
        assertFalse(budget.guardBuilt(), "a guard built before any call");
        assertEquals("done", budget.call(failing(0), String.class));
        assertTrue(budget.guardBuilt(), "a budget counts the first try too: it runs in the guard");
    }

    @Test
    void transientFailuresAreRetriedUpToTheLimitEachSeenByOnRetry() throws Exception {
        assertEquals("done", retry(3, 1, 10).call(failing(3), String.class));
        assertEquals(4, triedAt.size());
        assertEquals(List.of(LOST_CONNECTION, LOST_CONNECTION, LOST_CONNECTION), retried);
    }

    @Test
    void beyondTheLimitTheLastFailureIsThrown() {
        assertSame(LOST_CONNECTION, assertThrows(SQLException.class, () -> retry(2, 1, 10).call(failing(5), String.class)));
        assertEquals(3, triedAt.size());
        assertEquals(2, retried.size());
    }

    @Test
    void aLimitOfOneRetriesOnceAndALimitOfZeroNever() {
        assertThrows(SQLException.class, () -> retry(1, 1, 10).call(failing(5), String.class));
        assertEquals(2, triedAt.size());
        triedAt.clear();
        assertThrows(SQLException.class, () -> retry(0, 1, 10).call(failing(5), String.class));
        assertEquals(1, triedAt.size());
        assertEquals(1, retried.size());
    }

    @Test
    void aFailureThatIsNotTransientIsNeverRetried() {
        IllegalStateException bug = new IllegalStateException("bug");
        Callable<String> work = () -> {
            triedAt.add(System.nanoTime());
            throw bug;
        };
        assertSame(bug, assertThrows(IllegalStateException.class, () -> retry(3, 1, 10).call(work, String.class)));
        assertEquals(1, triedAt.size());
        assertTrue(retried.isEmpty());
    }

    @Test
    void aTransientFailureOfALaterTryIsRetriedAndAnotherFailureEndsTheTries() {
        IllegalStateException bug = new IllegalStateException("bug");
        Callable<String> work = () -> {
            triedAt.add(System.nanoTime());
            throw triedAt.size() < 3 ? LOST_CONNECTION : bug;
        };
        assertSame(bug, assertThrows(IllegalStateException.class, () -> retry(5, 1, 10).call(work, String.class)));
        assertEquals(3, triedAt.size());
    }

    @Test
    void theDelaysDoubleFromTheInitialOneUpToTheMaximum() throws Exception {
        // 40 ms, then 80, then 100 (capped), then 100: lower bounds only, as a loaded machine may sleep longer
        retry(4, 40, 100).call(failing(4), String.class);
        long[] expected = { 40, 80, 100, 100 };
        for (int i = 0; i < expected.length; i++) {
            long waited = Duration.ofNanos(triedAt.get(i + 1) - triedAt.get(i)).toMillis();
            assertTrue(waited >= expected[i] - 2, "delay before try " + (i + 2) + " was " + waited + " ms, expected "
                    + expected[i]);
        }
    }

    @Test
    void aMaximumReachedAtTheSecondDelayKeepsTheDelaysThere() throws Exception {
        // 30 ms, then 50 (capped), then 50; the maximum equal to the initial delay is valid too
        retry(3, 30, 50).call(failing(3), String.class);
        assertEquals(4, triedAt.size());
        triedAt.clear();
        assertEquals("done", retry(3, 20, 20).call(failing(3), String.class));
        assertEquals(4, triedAt.size());
        for (int i = 0; i < 3; i++) {
            assertTrue(Duration.ofNanos(triedAt.get(i + 1) - triedAt.get(i)).toMillis() >= 18);
        }
    }

    @Test
    void withABudgetEveryTryIsGuardedAndNoneBeginsAfterIt() {
        UnitOfWorkRetry budget = UnitOfWorkRetry.forBudget("test", Duration.ofMillis(300),
                failure -> failure == LOST_CONNECTION, Duration.ofMillis(40), Duration.ofMillis(100), failure -> false,
                retried::add);
        long began = System.nanoTime();
        assertSame(LOST_CONNECTION, assertThrows(SQLException.class, () -> budget.call(failing(100), String.class)));
        // 40, 80, 100, 100 ms: the try after the fourth delay would begin past 300 ms
        assertTrue(triedAt.size() >= 3 && triedAt.size() <= 5, "tries: " + triedAt.size());
        for (long tried : triedAt) {
            assertTrue(Duration.ofNanos(tried - began).toMillis() < 300, "a try began after the budget");
        }
        assertEquals(triedAt.size() - 1, retried.size());
    }

    @Test
    void aFailureRetriedAtOnceWaitsNoDelayAndLeavesTheDoublingWhereItWas() throws Exception {
        IllegalStateException conflict = new IllegalStateException("conflict");
        Callable<String> work = () -> {
            triedAt.add(System.nanoTime());
            // a conflict, a lost connection, a conflict, then success
            return switch (triedAt.size()) {
                case 1, 3 -> throw conflict;
                case 2 -> throw LOST_CONNECTION;
                default -> "done";
            };
        };
        UnitOfWorkRetry budget = UnitOfWorkRetry.forBudget("test", Duration.ofSeconds(10),
                failure -> failure == conflict || failure == LOST_CONNECTION, Duration.ofMillis(200),
                Duration.ofSeconds(1), failure -> failure == conflict, retried::add);
        assertEquals("done", budget.call(work, String.class));
        assertEquals(4, triedAt.size());
        assertTrue(Duration.ofNanos(triedAt.get(1) - triedAt.get(0)).toMillis() < 150, "no delay after a conflict");
        assertTrue(Duration.ofNanos(triedAt.get(2) - triedAt.get(1)).toMillis() >= 198, "the first delay");
        assertTrue(Duration.ofNanos(triedAt.get(3) - triedAt.get(2)).toMillis() < 150, "no delay after a conflict");
    }
}
