package io.durablebatch.deployment.test.attempts;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.ABANDONED;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTING;
import static io.durablebatch.execution.ExecutionStatus.STOPPED;
import static io.durablebatch.execution.ExecutionStatus.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §4 attempts: a first attempt when the instance has none, a restart only after STOPPED or
 * FAILED, and each other case refused with its own code, leaving the database unchanged.
 */
class RestartRulesTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Inject
    MetadataSql sql;

    @Test
    void aFirstAttemptIsCreatedInOneStatement() {
        JobInstance instance = given.newInstance("first");
        JobExecution first = tx(
                () -> assertStatements(sql, 1, () -> repository.createJobExecution(JobExecutionRequest.of(instance.id()))));
        assertEquals(instance.id(), first.jobInstanceId());
        assertEquals(1, first.attempt());
        assertFalse(first.isRestart());
        assertEquals(STARTING, first.status());
        assertEquals(ExitStatus.EXECUTING, first.exitStatus());
        assertEquals(ExecutionVersion.INITIAL, first.version());
        assertEquals(Optional.empty(), first.failure());
        assertEquals(Optional.empty(), first.definition());
        assertEquals(Optional.empty(), first.startedAt());
        assertEquals(Optional.empty(), first.endedAt());
        assertEquals(List.of(first), tx(() -> repository.jobExecutions(instance.id())));
    }

    @Test
    void anInstanceRestartsAfterFailedAndAfterStopped() {
        JobInstanceId instance = given.newInstance("restart").id();
        JobExecution first = given.attemptIn(instance, FAILED);
        JobExecution afterFailed = tx(() -> given.drive(
                assertStatements(sql, 1, () -> repository.createJobExecution(JobExecutionRequest.of(instance))), STOPPED));
        JobExecution afterStopped = given.attemptIn(instance, STARTING);

        assertEquals(List.of(1, 2, 3), List.of(first.attempt(), afterFailed.attempt(), afterStopped.attempt()));
        assertTrue(afterStopped.isRestart());
        assertEquals(STARTING, afterStopped.status());
        assertEquals(ExecutionVersion.INITIAL, afterStopped.version());
        assertEquals(List.of(first.id(), afterFailed.id(), afterStopped.id()),
                tx(() -> repository.jobExecutions(instance)).stream().map(JobExecution::id).toList());
    }

    @Test
    void aCompletedInstanceNeverRunsAgain() {
        JobInstanceId instance = given.newInstance("completed").id();
        given.attemptIn(instance, FAILED);
        JobExecution completed = given.attemptIn(instance, COMPLETED);
        RepositoryException refusal = state.assertRefusedChangingNothing(instance, RepositoryError.INSTANCE_COMPLETE,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance)));
        // the execution by its id and the attempt by its number, never one for the other
        assertEquals("INSTANCE_COMPLETE: job instance " + instance + ": its latest execution " + completed.id()
                + " (attempt 2) is COMPLETED", refusal.getMessage());
    }

    @Test
    void anAbandonedInstanceNeverRunsAgain() {
        JobInstanceId instance = given.jobExecutionIn(ABANDONED).jobInstanceId();
        state.assertRefusedChangingNothing(instance, RepositoryError.INSTANCE_ABANDONED,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance)));
    }

    @ParameterizedTest
    @ValueSource(strings = { "STARTING", "STARTED", "STOPPING" })
    void anInstanceWithAnActiveAttemptGetsNoOther(String active) {
        JobInstanceId instance = given.jobExecutionIn(ExecutionStatus.valueOf(active)).jobInstanceId();
        state.assertRefusedChangingNothing(instance, RepositoryError.EXECUTION_ACTIVE,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance)));
    }

    @Test
    void anInstanceWhoseLatestAttemptIsUnknownMustBeRecoveredFirst() {
        JobInstanceId instance = given.jobExecutionIn(UNKNOWN).jobInstanceId();
        state.assertRefusedChangingNothing(instance, RepositoryError.EXECUTION_UNKNOWN,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance)));
    }

    @Test
    void anUnknownInstanceIsRefused() {
        JobInstanceId missing = JobInstanceId.of(Long.MAX_VALUE);
        state.assertRefusedChangingNothing(missing, RepositoryError.JOB_INSTANCE_NOT_FOUND,
                () -> repository.createJobExecution(JobExecutionRequest.of(missing)));
    }
}
