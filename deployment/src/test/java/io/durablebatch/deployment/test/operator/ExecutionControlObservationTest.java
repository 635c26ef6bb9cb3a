package io.durablebatch.deployment.test.operator;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.operator.OperatorFixtures.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestApp;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.Rows;
import io.durablebatch.operator.ExecutionControl.Signal;
import io.durablebatch.operator.ExecutionControl;
import io.durablebatch.operator.OwnerToken;
import io.durablebatch.repository.ActorRef;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.OperationId;
import io.durablebatch.repository.ReasonCode;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC 8: the owner observes control at every chunk commit: one statement when nothing is pending;
 * a pending stop moves a STARTED execution to STOPPING exactly once, in the observer's transaction.
 */
class ExecutionControlObservationTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestApp.with(RepositoryTestSupport.class, Rows.class,
            OperatorFixtures.class);

    private static final OwnerToken OWNER = OwnerToken.of("node-a/boot-1");
    private static final ActorRef OPERATOR = ActorRef.of("alice");

    @Inject
    JobRepository repository;

    @Inject
    MetadataSql sql;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void withoutAStopRequestTheOwnerContinuesInOneStatement() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        List<Map<String, Object>> before = row(dataSource, started.id());

        ExecutionControl control = QuarkusTransaction.requiringNew().call(() -> {
            long statements = sql.statementsExecuted();
            ExecutionControl observed = repository.observeExecutionControl(started.id(), OWNER, now());
            assertEquals(1, sql.statementsExecuted() - statements, "statements of one observation");
            return observed;
        });

        assertEquals(new ExecutionControl(started.id(), Signal.CONTINUE, ExecutionStatus.STARTED, started.version()),
                control);
        assertEquals(before, row(dataSource, started.id()));
    }

    @Test
    void aPendingStopMovesAStartedExecutionToStoppingInOneStatement() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        JobExecution requested = tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR,
                now()));

        ExecutionControl control = QuarkusTransaction.requiringNew().call(() -> {
            long statements = sql.statementsExecuted();
            ExecutionControl observed = repository.observeExecutionControl(started.id(), OWNER, now());
            assertEquals(1, sql.statementsExecuted() - statements, "statements of the stopping observation");
            return observed;
        });

        assertEquals(new ExecutionControl(started.id(), Signal.STOP_REQUESTED, ExecutionStatus.STOPPING,
                requested.version().next()), control);
        JobExecution stored = tx(() -> repository.getJobExecution(started.id())).orElseThrow();
        assertEquals(ExecutionStatus.STOPPING, stored.status());
        assertEquals(requested.version().next(), stored.version());
    }

    @Test
    void theMoveToStoppingIsPartOfTheObserversTransaction() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        JobExecution requested = tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR,
                now()));

        IllegalStateException rollback = new IllegalStateException("the unit of work fails after the call");
        assertSame(rollback, assertThrows(IllegalStateException.class, () -> QuarkusTransaction.requiringNew().run(() -> {
            repository.observeExecutionControl(started.id(), OWNER, now());
            throw rollback;
        })));

        assertEquals(requested, tx(() -> repository.getJobExecution(started.id())).orElseThrow());
    }

    @Test
    void observingAgainKeepsStoppingAndTheVersion() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR, now()));
        ExecutionControl first = tx(() -> repository.observeExecutionControl(started.id(), OWNER, now()));

        ExecutionControl second = tx(() -> repository.observeExecutionControl(started.id(), OWNER, now()));

        assertEquals(first, second);
    }

    @Test
    void aStartingExecutionIsToldToStopButStaysStarting() {
        JobExecution claimed = OperatorFixtures.claimed(repository, OWNER);
        JobExecution requested = tx(() -> repository.requestExecutionStop(claimed.id(), claimed.version(), OPERATOR,
                now()));

        ExecutionControl control = tx(() -> repository.observeExecutionControl(claimed.id(), OWNER, now()));

        // STARTING may not move to STOPPING: the owner ends it STOPPED directly
        assertEquals(new ExecutionControl(claimed.id(), Signal.STOP_REQUESTED, ExecutionStatus.STARTING,
                requested.version()), control);
        JobExecution stopped = tx(() -> repository.transitionJobExecution(claimed.id(), control.version(),
                LifecycleTransition.to(ExecutionStatus.STOPPED, now())));
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
    }

    @Test
    void aNonOwnerIsRefusedAndMovesNothing() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR, now()));
        List<Map<String, Object>> before = row(dataSource, started.id());

        assertRefused(RepositoryError.OWNER_MISMATCH,
                () -> repository.observeExecutionControl(started.id(), OwnerToken.of("node-b/boot-2"), now()));

        assertEquals(before, row(dataSource, started.id()));
    }

    @Test
    void anUnclaimedExecutionHasNoOwnerToObserveIt() {
        JobExecution starting = OperatorFixtures.starting(repository);
        List<Map<String, Object>> before = row(dataSource, starting.id());

        assertRefused(RepositoryError.OWNER_MISMATCH, () -> repository.observeExecutionControl(starting.id(), OWNER, now()));

        assertEquals(before, row(dataSource, starting.id()));
    }

    @Test
    void aFinishedExecutionIsRefused() {
        JobExecution completed = OperatorFixtures.startedThen(repository, OWNER, ExecutionStatus.COMPLETED);
        List<Map<String, Object>> before = row(dataSource, completed.id());

        assertRefused(RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.observeExecutionControl(completed.id(), OWNER, now()));

        assertEquals(before, row(dataSource, completed.id()));
    }

    @Test
    void anOwnerWhoseExecutionWasRecoveredIsToldItIsNoLongerActive() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        tx(() -> repository.recoverJobExecution(started.id(), new RecoveryRequest(OperationId.of("recover-" + started.id()),
                OPERATOR, ReasonCode.of("OWNER_LOST"), RecoveryResolution.FAILED, started.version(), now())));
        List<Map<String, Object>> before = row(dataSource, started.id());

        assertRefused(RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.observeExecutionControl(started.id(), OWNER, now()));

        assertEquals(before, row(dataSource, started.id()));
    }

    @Test
    void aMissingExecutionIsRefused() {
        assertRefused(RepositoryError.JOB_EXECUTION_NOT_FOUND,
                () -> repository.observeExecutionControl(JobExecutionId.of(Long.MAX_VALUE), OWNER, now()));
    }

    @Test
    void aStopRequestRacingTheOwnersObservationsEndsInStoppingExactlyOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int round = 0; round < 40; round++) {
                JobExecution started = OperatorFixtures.started(repository, OWNER);
                CyclicBarrier barrier = new CyclicBarrier(3);
                Future<JobExecution> request = pool.submit(() -> {
                    barrier.await(10, TimeUnit.SECONDS);
                    return tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR, now()));
                });
                // two observers, as if the owner's chunk commit and its poll timer fired together
                List<Future<ExecutionControl>> observers = List.of(
                        pool.submit(() -> observeUntilStopped(started, barrier)),
                        pool.submit(() -> observeUntilStopped(started, barrier)));

                assertEquals(started.version().next(), request.get(30, TimeUnit.SECONDS).version());
                // one version for the request, one for the move to STOPPING, and nothing else
                ExecutionControl stopping = new ExecutionControl(started.id(), Signal.STOP_REQUESTED,
                        ExecutionStatus.STOPPING, started.version().next().next());
                for (Future<ExecutionControl> observer : observers) {
                    assertEquals(stopping, observer.get(30, TimeUnit.SECONDS), "round " + round);
                }
                JobExecution stored = tx(() -> repository.getJobExecution(started.id())).orElseThrow();
                assertEquals(ExecutionStatus.STOPPING, stored.status(), "round " + round);
                assertEquals(stopping.version(), stored.version(), "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Observes in a new transaction each time until told to stop, as the owner's chunk loop would. */
    private ExecutionControl observeUntilStopped(JobExecution started, CyclicBarrier barrier) throws Exception {
        barrier.await(10, TimeUnit.SECONDS);
        for (int attempt = 0; attempt < 10_000; attempt++) {
            ExecutionControl control = tx(() -> repository.observeExecutionControl(started.id(), OWNER, now()));
            if (control.stopRequested()) {
                return control;
            }
            assertEquals(new ExecutionControl(started.id(), Signal.CONTINUE, ExecutionStatus.STARTED, started.version()),
                    control);
        }
        throw new AssertionError("the stop request never reached the owner");
    }
}
