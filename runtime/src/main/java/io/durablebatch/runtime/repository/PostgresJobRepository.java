package io.durablebatch.runtime.repository;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.repository.DefinitionIdentity;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.ExecutionVersion;
import io.durablebatch.repository.ExitStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.repository.JobInstance;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.JobInstanceKey;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.StepExecution;
import io.durablebatch.repository.StepExecutionId;
import io.durablebatch.repository.StepName;
import io.durablebatch.runtime.Checks;
import io.durablebatch.runtime.sql.TransactionGuard;

/**
 * The PostgreSQL job repository. It checks each call's arguments and transaction, then hands it to
 * the store of its capability; the stores hold the SQL.
 */
@ApplicationScoped
public class PostgresJobRepository implements JobRepository {

    private final TransactionGuard transactions;
    private final JobInstanceStore instances;
    private final JobExecutionStore jobExecutions;
    private final StepExecutionStore stepExecutions;
    private final DefinitionUpgradeStore upgrades;
    private final RecoveryStore recoveries;

    PostgresJobRepository(TransactionGuard transactions, JobInstanceStore instances, JobExecutionStore jobExecutions,
            StepExecutionStore stepExecutions, DefinitionUpgradeStore upgrades, RecoveryStore recoveries) {
        this.transactions = transactions;
        this.instances = instances;
        this.jobExecutions = jobExecutions;
        this.stepExecutions = stepExecutions;
        this.upgrades = upgrades;
        this.recoveries = recoveries;
    }

    @Override
    public void registerDefinitionUpgrade(JobName jobName, DefinitionUpgrade upgrade) {
        Checks.notNull(jobName, "jobName");
        Checks.notNull(upgrade, "upgrade");
        transactions.requireActive("registerDefinitionUpgrade");
        upgrades.register(jobName, upgrade);
    }

    @Override
    public JobInstanceSelection selectOrCreateJobInstance(JobInstanceKey key) {
        Checks.notNull(key, "key");
        transactions.requireActive("selectOrCreateJobInstance");
        return instances.selectOrCreate(key);
    }

    @Override
    public JobExecution createJobExecution(JobInstanceId jobInstanceId) {
        Checks.notNull(jobInstanceId, "jobInstanceId");
        transactions.requireActive("createJobExecution");
        return jobExecutions.create(jobInstanceId, Optional.empty());
    }

    @Override
    public JobExecution createJobExecution(JobInstanceId jobInstanceId, DefinitionIdentity definition) {
        Checks.notNull(jobInstanceId, "jobInstanceId");
        Checks.notNull(definition, "definition");
        transactions.requireActive("createJobExecution");
        return jobExecutions.create(jobInstanceId, Optional.of(definition));
    }

    @Override
    public StepExecution createStepExecution(JobExecutionId jobExecutionId, StepName stepName) {
        Checks.notNull(jobExecutionId, "jobExecutionId");
        Checks.notNull(stepName, "stepName");
        transactions.requireActive("createStepExecution");
        return stepExecutions.create(jobExecutionId, stepName);
    }

    @Override
    public JobExecution transitionJobExecution(JobExecutionId id, ExecutionVersion expectedVersion,
            LifecycleTransition transition) {
        checkMutation(id, expectedVersion, transition, "transition");
        transactions.requireActive("transitionJobExecution");
        return jobExecutions.transition(id, expectedVersion, transition);
    }

    @Override
    public JobExecution enrichJobExitStatus(JobExecutionId id, ExecutionVersion expectedVersion, ExitStatus exitStatus) {
        checkMutation(id, expectedVersion, exitStatus, "exitStatus");
        transactions.requireActive("enrichJobExitStatus");
        return jobExecutions.enrichExitStatus(id, expectedVersion, exitStatus);
    }

    @Override
    public StepExecution transitionStepExecution(StepExecutionId id, ExecutionVersion expectedVersion,
            LifecycleTransition transition) {
        checkMutation(id, expectedVersion, transition, "transition");
        transactions.requireActive("transitionStepExecution");
        return stepExecutions.transition(id, expectedVersion, transition);
    }

    @Override
    public StepExecution enrichStepExitStatus(StepExecutionId id, ExecutionVersion expectedVersion,
            ExitStatus exitStatus) {
        checkMutation(id, expectedVersion, exitStatus, "exitStatus");
        transactions.requireActive("enrichStepExitStatus");
        return stepExecutions.enrichExitStatus(id, expectedVersion, exitStatus);
    }

    @Override
    public Optional<JobInstance> findJobInstance(JobInstanceKey key) {
        Checks.notNull(key, "key");
        transactions.requireActive("findJobInstance");
        return instances.find(key);
    }

    @Override
    public Optional<JobInstance> getJobInstance(JobInstanceId id) {
        Checks.notNull(id, "id");
        transactions.requireActive("getJobInstance");
        return instances.get(id);
    }

    @Override
    public Optional<JobExecution> getJobExecution(JobExecutionId id) {
        Checks.notNull(id, "id");
        transactions.requireActive("getJobExecution");
        return jobExecutions.get(id);
    }

    @Override
    public Optional<JobExecution> latestJobExecution(JobInstanceId jobInstanceId) {
        Checks.notNull(jobInstanceId, "jobInstanceId");
        transactions.requireActive("latestJobExecution");
        return jobExecutions.latest(jobInstanceId);
    }

    @Override
    public List<JobExecution> jobExecutions(JobInstanceId jobInstanceId) {
        Checks.notNull(jobInstanceId, "jobInstanceId");
        transactions.requireActive("jobExecutions");
        return jobExecutions.ofInstance(jobInstanceId);
    }

    @Override
    public Optional<StepExecution> getStepExecution(StepExecutionId id) {
        Checks.notNull(id, "id");
        transactions.requireActive("getStepExecution");
        return stepExecutions.get(id);
    }

    @Override
    public List<StepExecution> stepExecutions(JobExecutionId jobExecutionId) {
        Checks.notNull(jobExecutionId, "jobExecutionId");
        transactions.requireActive("stepExecutions");
        return stepExecutions.ofJobExecution(jobExecutionId);
    }

    @Override
    public RecoveryResult recoverJobExecution(JobExecutionId id, RecoveryRequest request) {
        Checks.notNull(id, "id");
        Checks.notNull(request, "request");
        transactions.requireActive("recoverJobExecution");
        return recoveries.recover(id, request);
    }

    @Override
    public Optional<RecoveryDecision> recoveryDecision(JobExecutionId id) {
        Checks.notNull(id, "id");
        transactions.requireActive("recoveryDecision");
        return recoveries.decision(id);
    }

    private static void checkMutation(Object id, ExecutionVersion expectedVersion, Object change, String changeField) {
        Checks.notNull(id, "id");
        Checks.notNull(expectedVersion, "expectedVersion");
        Checks.notNull(change, changeField);
    }
}
