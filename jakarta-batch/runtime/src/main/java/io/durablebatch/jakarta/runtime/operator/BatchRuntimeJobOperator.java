package io.durablebatch.jakarta.runtime.operator;

import java.util.List;
import java.util.Properties;
import java.util.Set;

import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.JobInstance;
import jakarta.batch.runtime.StepExecution;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;

/**
 * What {@code BatchRuntime.getJobOperator()} returns: the specification finds the implementation
 * with a plain {@link java.util.ServiceLoader}, which knows nothing of CDI, so this class (listed in
 * {@code META-INF/services}) hands every call to the {@link JakartaJobOperator} bean of the running
 * application. Each call looks the bean up, so one instance outlives a restart of the application in
 * the same class loader (as in dev mode).
 */
public class BatchRuntimeJobOperator implements JobOperator {

    public BatchRuntimeJobOperator() {
        // instantiated by the ServiceLoader
    }

    private static JobOperator bean() {
        ArcContainer container = Arc.container();
        if (container == null || !container.isRunning()) {
            throw new IllegalStateException("BatchRuntime.getJobOperator() works inside a running Quarkus application; "
                    + "no application is running in this class loader");
        }
        return container.instance(JakartaJobOperator.class).get();
    }

    @Override
    public Set<String> getJobNames() {
        return bean().getJobNames();
    }

    @Override
    public int getJobInstanceCount(String jobName) {
        return bean().getJobInstanceCount(jobName);
    }

    @Override
    public List<JobInstance> getJobInstances(String jobName, int start, int count) {
        return bean().getJobInstances(jobName, start, count);
    }

    @Override
    public List<Long> getRunningExecutions(String jobName) {
        return bean().getRunningExecutions(jobName);
    }

    @Override
    public Properties getParameters(long executionId) {
        return bean().getParameters(executionId);
    }

    @Override
    public long start(String jobXMLName, Properties jobParameters) {
        return bean().start(jobXMLName, jobParameters);
    }

    @Override
    public long restart(long executionId, Properties restartParameters) {
        return bean().restart(executionId, restartParameters);
    }

    @Override
    public void stop(long executionId) {
        bean().stop(executionId);
    }

    @Override
    public void abandon(long executionId) {
        bean().abandon(executionId);
    }

    @Override
    public JobInstance getJobInstance(long executionId) {
        return bean().getJobInstance(executionId);
    }

    @Override
    public List<JobExecution> getJobExecutions(JobInstance instance) {
        return bean().getJobExecutions(instance);
    }

    @Override
    public JobExecution getJobExecution(long executionId) {
        return bean().getJobExecution(executionId);
    }

    @Override
    public List<StepExecution> getStepExecutions(long jobExecutionId) {
        return bean().getStepExecutions(jobExecutionId);
    }
}
