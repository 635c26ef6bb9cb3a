package io.durablebatch.deployment.test.concurrency;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static io.durablebatch.execution.ExecutionStatus.STARTING;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §2–4 under contention: real threads, each call in its own transaction, released together
 * ({@link Race}). The database decides every race at READ COMMITTED: exactly one winner, and every loser
 * gets a typed refusal (or, for select-or-create, the winner's instance), never a storage error.
 */
class ConcurrentLaunchRacesTest {

    private static final int THREADS = 16;
    private static final int ROUNDS = 5;

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Test
    void concurrentSelectOrCreateOfOneKeyMakesOneInstance() {
        for (int round = 0; round < ROUNDS; round++) {
            JobInstanceKey key = freshKey("storm");
            List<Race.Outcome<JobInstanceSelection>> outcomes = race(() -> repository.selectOrCreateJobInstance(key));

            assertEquals(Map.of("ok", (long) THREADS), Race.codes(outcomes), "no caller sees an error");
            List<JobInstanceSelection> selections = Race.results(outcomes);
            assertEquals(1, selections.stream().filter(JobInstanceSelection::created).count(), "created once");
            assertEquals(1, selections.stream().map(s -> s.instance().id()).distinct().count(), "one instance");
            assertEquals(Optional.of(selections.get(0).instance()), tx(() -> repository.findJobInstance(key)));
        }
    }

    @Test
    void concurrentFirstAttemptsOfOneInstanceMakeOneExecution() {
        for (int round = 0; round < ROUNDS; round++) {
            JobInstanceId instance = given.newInstance("attempt-storm").id();
            List<Race.Outcome<JobExecution>> outcomes = race(
                    () -> repository.createJobExecution(JobExecutionRequest.of(instance)));

            assertOneWinnerAndRefusals(outcomes, RepositoryError.EXECUTION_ACTIVE);
            JobExecution winner = Race.results(outcomes).get(0);
            assertEquals(1, winner.attempt());
            assertEquals(List.of(winner), tx(() -> repository.jobExecutions(instance)));
        }
    }

    @Test
    void concurrentRestartsAfterAFailureMakeOneNewAttempt() {
        for (int round = 0; round < ROUNDS; round++) {
            JobExecution failed = given.jobExecutionIn(FAILED);
            JobInstanceId instance = failed.jobInstanceId();
            List<Race.Outcome<JobExecution>> outcomes = race(
                    () -> repository.createJobExecution(JobExecutionRequest.of(instance)));

            assertOneWinnerAndRefusals(outcomes, RepositoryError.EXECUTION_ACTIVE);
            JobExecution restart = Race.results(outcomes).get(0);
            assertEquals(2, restart.attempt());
            assertEquals(List.of(failed, restart), tx(() -> repository.jobExecutions(instance)));
        }
    }

    @Test
    void concurrentCompareAndSwapsAtOneVersionLetExactlyOneThrough() {
        for (int round = 0; round < ROUNDS; round++) {
            JobExecution starting = given.jobExecutionIn(STARTING);
            // Half of the callers start the execution, half fail it: the version decides, not the target.
            AtomicInteger callers = new AtomicInteger();
            List<Race.Outcome<JobExecution>> outcomes = race(() -> {
                ExecutionStatus target = callers.getAndIncrement() % 2 == 0 ? STARTED : FAILED;
                return repository.transitionJobExecution(starting.id(), starting.version(),
                        LifecycleTransition.to(target, now()));
            });

            assertOneWinnerAndRefusals(outcomes, RepositoryError.VERSION_CONFLICT);
            JobExecution winner = Race.results(outcomes).get(0);
            assertEquals(starting.version().next(), winner.version());
            assertEquals(winner, tx(() -> repository.getJobExecution(starting.id())).orElseThrow());
        }
    }

    /** Runs {@code call} on every thread at once, each in its own transaction. */
    private static <T> List<Race.Outcome<T>> race(Supplier<T> call) {
        return Race.run(THREADS, racer -> tx(call));
    }

    private static <T> void assertOneWinnerAndRefusals(List<Race.Outcome<T>> outcomes, RepositoryError loserError) {
        assertEquals(Map.of("ok", 1L, loserError.name(), (long) THREADS - 1), Race.codes(outcomes),
                "exactly one winner, every other caller refused");
    }
}
