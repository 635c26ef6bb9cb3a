package io.durablebatch.deployment.test.operator;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;

import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.durablebatch.deployment.test.Rows;
import io.durablebatch.operator.OwnerToken;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;

/** Executions in the states the operator tests start from, each committed in its own unit of work. */
final class OperatorFixtures {

    private OperatorFixtures() {
    }

    /** A new STARTING execution of a fresh instance, not claimed by anyone. */
    static JobExecution starting(JobRepository repository) {
        return tx(() -> repository.createJobExecution(
                repository.selectOrCreateJobInstance(freshKey("operator")).instance().id()));
    }

    /** A STARTING execution claimed by {@code owner}. */
    static JobExecution claimed(JobRepository repository, OwnerToken owner) {
        JobExecution starting = starting(repository);
        return tx(() -> repository.claimExecutionOwner(starting.id(), starting.version(), owner, now()));
    }

    /** A STARTED execution claimed by {@code owner}. */
    static JobExecution started(JobRepository repository, OwnerToken owner) {
        JobExecution claimed = claimed(repository, owner);
        return tx(() -> repository.transitionJobExecution(claimed.id(), claimed.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, now())));
    }

    /** An execution claimed by {@code owner} that went through {@code path} after STARTED. */
    static JobExecution startedThen(JobRepository repository, OwnerToken owner, ExecutionStatus... path) {
        JobExecution execution = started(repository, owner);
        for (ExecutionStatus status : path) {
            JobExecution current = execution;
            execution = tx(() -> repository.transitionJobExecution(current.id(), current.version(),
                    LifecycleTransition.to(status, now())));
        }
        return execution;
    }

    /** The stored execution row, every column included, read outside any unit of work. */
    static List<Map<String, Object>> row(DataSource dataSource, JobExecutionId id) {
        return Rows.select(dataSource, "SELECT * FROM dbatch_job_execution WHERE id = ?", id.value());
    }
}
