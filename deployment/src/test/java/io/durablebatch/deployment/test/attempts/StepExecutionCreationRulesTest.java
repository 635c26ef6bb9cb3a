package io.durablebatch.deployment.test.attempts;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC §4: a step attempt starts only in an active job execution, linked to it and to its instance. */
class StepExecutionCreationRulesTest {

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

    @ParameterizedTest
    @ValueSource(strings = { "STARTING", "STARTED", "STOPPING" })
    void aStepStartsInAnActiveJobExecutionInOneStatement(String active) {
        JobExecution execution = given.jobExecutionIn(ExecutionStatus.valueOf(active));
        StepExecution step = tx(() -> assertStatements(sql, 1,
                () -> repository.createStepExecution(execution.id(), StepName.of("load customers"))));
        assertEquals(execution.id(), step.jobExecutionId());
        assertEquals(execution.jobInstanceId(), step.jobInstanceId());
        assertEquals(StepName.of("load customers"), step.stepName());
        assertEquals(ExecutionStatus.STARTING, step.status());
        assertEquals(ExitStatus.EXECUTING, step.exitStatus());
        assertEquals(ExecutionVersion.INITIAL, step.version());
        assertEquals(StepCounters.ZERO, step.counters());
        assertEquals(Optional.empty(), step.checkpoint());
        assertEquals(Optional.empty(), step.failure());
        assertEquals(Optional.empty(), step.startedAt());
        assertEquals(Optional.empty(), step.endedAt());
        assertEquals(List.of(step), tx(() -> repository.stepExecutions(execution.id())));
        assertEquals(execution, tx(() -> repository.getJobExecution(execution.id())).orElseThrow(),
                "linking a step does not touch the job execution");
    }

    @ParameterizedTest
    @ValueSource(strings = { "STOPPED", "FAILED", "COMPLETED", "ABANDONED", "UNKNOWN" })
    void aStepDoesNotStartInAJobExecutionThatIsNotActive(String status) {
        JobExecution execution = given.jobExecutionIn(ExecutionStatus.valueOf(status));
        state.assertRefusedChangingNothing(execution.jobInstanceId(), RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.createStepExecution(execution.id(), StepName.of("late")));
    }

    @Test
    void aStepOfAnUnknownJobExecutionIsRefused() {
        JobExecution unrelated = given.jobExecutionIn(ExecutionStatus.STARTED);
        state.assertRefusedChangingNothing(unrelated.jobInstanceId(), RepositoryError.JOB_EXECUTION_NOT_FOUND,
                () -> repository.createStepExecution(JobExecutionId.of(Long.MAX_VALUE), StepName.of("orphan")));
        assertRefused(RepositoryError.JOB_EXECUTION_NOT_FOUND,
                () -> repository.createStepExecution(JobExecutionId.of(Long.MAX_VALUE), StepName.of("orphan")));
    }
}
