package io.durablebatch.deployment.test.concurrency;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.repository.ExecutionStatus.FAILED;
import static io.durablebatch.repository.ExecutionStatus.STARTED;
import static io.durablebatch.repository.ExecutionStatus.STARTING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.JobInstanceKey;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §2–4 under contention: real threads, each call in its own transaction, released together by
 * a latch. The database decides every race at READ COMMITTED: exactly one winner, and every loser
 * gets a typed refusal (or, for select-or-create, the winner's instance), never a storage error.
 */
class ConcurrentLaunchRacesTest {

    private static final int THREADS = 16;
    private static final int ROUNDS = 5;

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    JobRepository repository;

    @Inject
    RepositoryFixtures given;

    private ExecutorService threads;

    @BeforeEach
    void startThreads() {
        threads = Executors.newFixedThreadPool(THREADS);
    }

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
    }

    @Test
    void concurrentSelectOrCreateOfOneKeyMakesOneInstance() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            JobInstanceKey key = freshKey("storm");
            List<Outcome<JobInstanceSelection>> outcomes = race(() -> repository.selectOrCreateJobInstance(key));

            List<JobInstanceSelection> selections = successes(outcomes);
            assertEquals(THREADS, selections.size(), () -> "no caller sees an error: " + failures(outcomes));
            assertEquals(1, selections.stream().filter(JobInstanceSelection::created).count(), "created once");
            assertEquals(1, selections.stream().map(s -> s.instance().id()).distinct().count(), "one instance");
            assertEquals(Optional.of(selections.get(0).instance()), tx(() -> repository.findJobInstance(key)));
        }
    }

    @Test
    void concurrentFirstAttemptsOfOneInstanceMakeOneExecution() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            JobInstanceId instance = given.newInstance("attempt-storm").id();
            List<Outcome<JobExecution>> outcomes = race(() -> repository.createJobExecution(instance));

            assertOneWinnerAndRefusals(outcomes, RepositoryError.EXECUTION_ACTIVE);
            JobExecution winner = successes(outcomes).get(0);
            assertEquals(1, winner.attempt());
            assertEquals(List.of(winner), tx(() -> repository.jobExecutions(instance)));
        }
    }

    @Test
    void concurrentRestartsAfterAFailureMakeOneNewAttempt() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            JobExecution failed = given.jobExecutionIn(FAILED);
            JobInstanceId instance = failed.jobInstanceId();
            List<Outcome<JobExecution>> outcomes = race(() -> repository.createJobExecution(instance));

            assertOneWinnerAndRefusals(outcomes, RepositoryError.EXECUTION_ACTIVE);
            JobExecution restart = successes(outcomes).get(0);
            assertEquals(2, restart.attempt());
            assertEquals(List.of(failed, restart), tx(() -> repository.jobExecutions(instance)));
        }
    }

    @Test
    void concurrentCompareAndSwapsAtOneVersionLetExactlyOneThrough() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            JobExecution starting = given.jobExecutionIn(STARTING);
            // Half of the callers start the execution, half fail it: the version decides, not the target.
            AtomicInteger callers = new AtomicInteger();
            List<Outcome<JobExecution>> outcomes = race(() -> {
                ExecutionStatus target = callers.getAndIncrement() % 2 == 0 ? STARTED : FAILED;
                return repository.transitionJobExecution(starting.id(), starting.version(),
                        LifecycleTransition.to(target, now()));
            });

            assertOneWinnerAndRefusals(outcomes, RepositoryError.VERSION_CONFLICT);
            JobExecution winner = successes(outcomes).get(0);
            assertEquals(starting.version().next(), winner.version());
            assertEquals(winner, tx(() -> repository.getJobExecution(starting.id())).orElseThrow());
        }
    }

    /** Runs {@code call} on every thread at once, each in its own transaction. */
    private <T> List<Outcome<T>> race(Callable<T> call) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(THREADS);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            futures.add(threads.submit(() -> {
                ready.countDown();
                go.await();
                return QuarkusTransaction.requiringNew().call(call);
            }));
        }
        assertTrue(ready.await(30, TimeUnit.SECONDS), "all threads ready");
        go.countDown();
        List<Outcome<T>> outcomes = new ArrayList<>();
        for (Future<T> future : futures) {
            try {
                outcomes.add(new Outcome<>(future.get(60, TimeUnit.SECONDS), null));
            } catch (ExecutionException e) {
                outcomes.add(new Outcome<>(null, e.getCause()));
            } catch (TimeoutException e) {
                throw new AssertionError("a racing unit of work did not finish: deadlock?", e);
            }
        }
        return outcomes;
    }

    private static <T> void assertOneWinnerAndRefusals(List<Outcome<T>> outcomes, RepositoryError loserError) {
        assertEquals(1, successes(outcomes).size(), () -> "exactly one winner; failures: " + failures(outcomes));
        Map<String, Long> losers = failures(outcomes);
        assertEquals(Map.of(loserError.name(), (long) THREADS - 1), losers);
    }

    private static <T> List<T> successes(List<Outcome<T>> outcomes) {
        return outcomes.stream().filter(o -> o.failure() == null).map(Outcome::value).toList();
    }

    /** The losers by error code (or exception type, for anything that is not a refusal). */
    private static <T> Map<String, Long> failures(List<Outcome<T>> outcomes) {
        Function<Throwable, String> code = failure -> failure instanceof RepositoryException refusal
                ? refusal.error().name()
                : failure.getClass().getName() + ": " + failure.getMessage();
        return outcomes.stream().filter(o -> o.failure() != null)
                .collect(Collectors.groupingBy(o -> code.apply(o.failure()), Collectors.counting()));
    }

    private record Outcome<T>(T value, Throwable failure) {
    }
}
