package io.durablebatch.deployment.test.operator;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.control.ExecutionControl;
import io.durablebatch.repository.control.ExecutionControl.Signal;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC 8: the owner observes control at every chunk commit: one statement when nothing is pending;
 * a pending stop moves a STARTED execution to STOPPING exactly once, in the observer's transaction.
 */
class ExecutionControlObservationTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    private static final OwnerToken OWNER = OwnerToken.of("node-a/boot-1");
    private static final ActorRef OPERATOR = ActorRef.of("alice");

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    MetadataSql sql;

    @Inject
    StoredState state;

    @Test
    void withoutAStopRequestTheOwnerContinuesInOneStatement() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
        List<String> before = state.of(started.jobInstanceId());

        ExecutionControl control = QuarkusTransaction.requiringNew().call(() -> {
            long statements = sql.statementsExecutedOnThisThread();
            ExecutionControl observed = repository.observeExecutionControl(started.id(), OWNER, now());
            assertEquals(1, sql.statementsExecutedOnThisThread() - statements, "statements of one observation");
            return observed;
        });

        assertEquals(new ExecutionControl(started.id(), Signal.CONTINUE, ExecutionStatus.STARTED, started.version()),
                control);
        assertEquals(before, state.of(started.jobInstanceId()), "nothing but the lease changes");
    }

    @Test
    void anObservationRenewsTheOwnersLeaseOnTheDatabaseClock() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
        String renewed = "SELECT lease_expires_at - statement_timestamp() > interval '29 seconds' AS renewed "
                + "FROM {p}job_execution WHERE id = ?";
        state.rows("UPDATE {p}job_execution SET lease_expires_at = now() WHERE id = ? RETURNING id", started.id().value());
        tx(() -> repository.observeExecutionControl(started.id(), OWNER, now()));
        assertEquals(true, state.rows(renewed, started.id().value()).get(0).get("renewed"),
                "renewed for the 30 s lease duration");
    }

    @Test
    void aPendingStopMovesAStartedExecutionToStoppingInOneStatement() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
        JobExecution requested = tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR,
                now()));

        ExecutionControl control = QuarkusTransaction.requiringNew().call(() -> {
            long statements = sql.statementsExecutedOnThisThread();
            ExecutionControl observed = repository.observeExecutionControl(started.id(), OWNER, now());
            assertEquals(1, sql.statementsExecutedOnThisThread() - statements, "statements of the stopping observation");
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
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
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
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
        tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR, now()));
        ExecutionControl first = tx(() -> repository.observeExecutionControl(started.id(), OWNER, now()));

        ExecutionControl second = tx(() -> repository.observeExecutionControl(started.id(), OWNER, now()));

        assertEquals(first, second);
    }

    @Test
    void aStartingExecutionIsToldToStopButStaysStarting() {
        JobExecution claimed = given.ownedBy(OWNER, ExecutionStatus.STARTING);
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
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
        tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR, now()));
        state.assertRefusedChangingNothing(started.jobInstanceId(), RepositoryError.OWNER_MISMATCH,
                () -> repository.observeExecutionControl(started.id(), OwnerToken.of("node-b/boot-2"), now()));
    }

    @Test
    void anUnclaimedExecutionHasNoOwnerToObserveIt() {
        JobExecution starting = given.jobExecutionIn("operator", ExecutionStatus.STARTING);

        state.assertRefusedChangingNothing(starting.jobInstanceId(), RepositoryError.OWNER_MISMATCH,
                () -> repository.observeExecutionControl(starting.id(), OWNER, now()));
    }

    @Test
    void aFinishedExecutionIsRefused() {
        JobExecution completed = given.ownedBy(OWNER, ExecutionStatus.COMPLETED);

        state.assertRefusedChangingNothing(completed.jobInstanceId(), RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.observeExecutionControl(completed.id(), OWNER, now()));
    }

    @Test
    void anOwnerWhoseExecutionWasRecoveredIsToldItIsNoLongerActive() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
        tx(() -> repository.recoverJobExecution(started.id(), new RecoveryRequest(OperationId.of("recover-" + started.id()),
                OPERATOR, ReasonCode.of("OWNER_LOST"), RecoveryResolution.FAILED, started.version(), now(), true)));
        state.assertRefusedChangingNothing(started.jobInstanceId(), RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.observeExecutionControl(started.id(), OWNER, now()));
    }

    @Test
    void aMissingExecutionIsRefused() {
        assertRefused(RepositoryError.JOB_EXECUTION_NOT_FOUND,
                () -> repository.observeExecutionControl(JobExecutionId.of(Long.MAX_VALUE), OWNER, now()));
    }

    @Test
    void aStopRequestRacingTheOwnersObservationsEndsInStoppingExactlyOnce() {
        for (int round = 0; round < 40; round++) {
            JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);

            // the operator's request, and two observers, as if the owner's chunk commit and its poll timer fired together
            List<Race.Outcome<Object>> outcomes = Race.<Object> run(3, racer -> racer == 0
                    ? tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR, now()))
                    : observeUntilStopped(started));

            String context = "round " + round + ": " + outcomes;
            assertEquals(Map.of("ok", 3L), Race.codes(outcomes), context);
            assertEquals(started.version().next(), ((JobExecution) outcomes.get(0).result()).version(), context);
            // one version for the request, one for the move to STOPPING, and nothing else
            ExecutionControl stopping = new ExecutionControl(started.id(), Signal.STOP_REQUESTED,
                    ExecutionStatus.STOPPING, started.version().next().next());
            assertEquals(List.of(stopping, stopping), List.of(outcomes.get(1).result(), outcomes.get(2).result()),
                    context);
            JobExecution stored = tx(() -> repository.getJobExecution(started.id())).orElseThrow();
            assertEquals(ExecutionStatus.STOPPING, stored.status(), context);
            assertEquals(stopping.version(), stored.version(), context);
        }
    }

    /** Observes in a new transaction each time until told to stop, as the owner's chunk loop would. */
    private ExecutionControl observeUntilStopped(JobExecution started) {
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
