package io.durablebatch.jakarta.runtime.operator;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import jakarta.batch.operations.JobExecutionAlreadyCompleteException;
import jakarta.batch.operations.JobExecutionIsRunningException;
import jakarta.batch.operations.JobExecutionNotMostRecentException;
import jakarta.batch.operations.JobExecutionNotRunningException;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.JobRestartException;
import jakarta.batch.operations.JobStartException;
import jakarta.batch.operations.NoSuchJobException;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.operations.NoSuchJobInstanceException;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.JobInstance;
import jakarta.batch.runtime.StepExecution;
import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.jakarta.runtime.JakartaJobs;
import io.durablebatch.jakarta.runtime.execution.ExecutionContexts;
import io.durablebatch.jakarta.runtime.execution.JakartaParameters;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.partition.PartitionWorkerSteps;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The Jakarta Batch {@link JobOperator} over the kernel's: it starts the application's job XMLs
 * (each a kernel job definition), and reads their instances and executions from the job repository.
 * It sees only the executions of job XMLs: a natively defined job's are not its own.
 */
@ApplicationScoped
public class JakartaJobOperator implements JobOperator {

    /** The actor the kernel's operator audit records for every request made through this API. */
    static final String ACTOR = "jakarta-batch";

    private final io.durablebatch.operator.JobOperator kernel;
    private final JobRepository repository;
    private final JakartaJobs jobs;
    private final ExecutionContexts contexts;

    JakartaJobOperator(io.durablebatch.operator.JobOperator kernel, JobRepository repository, JakartaJobs jobs,
            ExecutionContexts contexts) {
        this.kernel = kernel;
        this.repository = repository;
        this.jobs = jobs;
        this.contexts = contexts;
    }

    // Launching

    /** Each start is a new job instance: Jakarta parameters have no identity (see {@link JakartaParameters}). */
    @Override
    public long start(String jobXMLName, Properties jobParameters) {
        Optional<String> refusal = jobs.refusal(jobXMLName);
        if (refusal.isPresent()) {
            throw new JobStartException("job XML " + jobXMLName + " cannot run: " + refusal.get());
        }
        if (jobs.job(jobXMLName).isEmpty()) {
            throw new JobStartException("no job XML META-INF/batch-jobs/" + jobXMLName + ".xml; the job XMLs are "
                    + jobs.names());
        }
        JobParameters parameters;
        try {
            parameters = JakartaParameters.forStart(jobParameters);
        } catch (IllegalArgumentException e) {
            throw new JobStartException("job " + jobXMLName + ": " + e.getMessage(), e);
        }
        try {
            return kernel.start(jobXMLName, parameters, OperatorCall.by(ACTOR)).value();
        } catch (RepositoryException e) {
            throw new JobStartException("job " + jobXMLName + " cannot start: " + e.getMessage(), e);
        }
    }

    /**
     * Restarts the instance's most recent execution, with {@code restartParameters} instead of the
     * ones it ran with. The refusals are checked here first, so each gets its Jakarta exception; the
     * kernel checks them again when it creates the attempt, against racing requests.
     */
    @Override
    public long restart(long executionId, Properties restartParameters) {
        io.durablebatch.execution.JobExecution execution = execution(executionId);
        String name = execution.jobName().value();
        JslJob job = jobs.job(name)
                .orElseThrow(() -> new JobRestartException("job XML " + name + " of execution " + executionId
                        + " cannot run: " + jobs.refusal(name).orElse("it is gone from the application")));
        if (job.restartable().map(value -> value.trim().equals("false")).orElse(false)) {
            throw new JobRestartException("job " + name + " is restartable=\"false\"");
        }
        io.durablebatch.execution.JobExecution latest = read(() -> repository
                .latestJobExecution(execution.jobInstanceId())).orElseThrow();
        if (!latest.id().equals(execution.id())) {
            throw new JobExecutionNotMostRecentException("execution " + executionId + " is not the most recent of "
                    + "its instance: restart execution " + latest.id());
        }
        switch (execution.status()) {
            case COMPLETED -> throw new JobExecutionAlreadyCompleteException("execution " + executionId
                    + " of job " + name + " COMPLETED; its instance runs no more");
            case ABANDONED -> throw new JobRestartException("execution " + executionId + " of job " + name
                    + " is ABANDONED: only a STOPPED or FAILED execution restarts");
            default -> {
                // STOPPED and FAILED restart; the kernel refuses an active or UNKNOWN one, naming its
                // owner's lease and when it runs out
            }
        }
        ExecutionParameters parameters;
        try {
            parameters = JakartaParameters.nonIdentifying(restartParameters);
        } catch (IllegalArgumentException e) {
            throw new JobRestartException("job " + name + ": " + e.getMessage(), e);
        }
        try {
            return kernel.restart(execution.id(), parameters, OperatorCall.by(ACTOR)).value();
        } catch (RepositoryException e) {
            throw restartRefused(executionId, e);
        }
    }

    private static RuntimeException restartRefused(long executionId, RepositoryException e) {
        String message = "execution " + executionId + " cannot be restarted: " + e.getMessage();
        return switch (e.error()) {
            case INSTANCE_COMPLETE -> new JobExecutionAlreadyCompleteException(message, e);
            case EXECUTION_SUPERSEDED -> new JobExecutionNotMostRecentException(message, e);
            default -> new JobRestartException(message, e);
        };
    }

    /**
     * Asks the kernel to stop the execution, then calls {@code stop()} of the batchlet it runs in
     * this process; the step ends STOPPED when {@code process()} returns.
     */
    @Override
    public void stop(long executionId) {
        io.durablebatch.execution.JobExecution execution = execution(executionId);
        if (execution.status() == ExecutionStatus.UNKNOWN) {
            throw new JobExecutionNotRunningException("execution " + executionId + " is not running here: its end "
                    + "could not be recorded, and it is shown STARTED until it is recovered");
        }
        if (!execution.status().isActive()) {
            throw new JobExecutionNotRunningException("execution " + executionId + " is "
                    + BatchStatuses.of(execution.status()) + ", not running");
        }
        try {
            kernel.stop(execution.id(), OperatorCall.by(ACTOR));
        } catch (RepositoryException e) {
            if (e.error() == RepositoryError.ILLEGAL_TRANSITION || e.error() == RepositoryError.EXECUTION_NOT_ACTIVE) {
                throw new JobExecutionNotRunningException("execution " + executionId + " ended before the stop: "
                        + e.getMessage(), e);
            }
            throw e;
        }
        contexts.stop(executionId);
    }

    /**
     * Abandons a STOPPED or FAILED execution; its instance never runs again. A COMPLETED one is
     * refused with {@link JobExecutionAlreadyCompleteException}: the kernel keeps a completed
     * instance's outcome as it is.
     */
    @Override
    public void abandon(long executionId) {
        io.durablebatch.execution.JobExecution execution = execution(executionId);
        if (BatchStatuses.running(execution.status())) {
            throw new JobExecutionIsRunningException("execution " + executionId + " is "
                    + BatchStatuses.of(execution.status()) + "; stop it first");
        }
        if (execution.status() == ExecutionStatus.COMPLETED) {
            throw new JobExecutionAlreadyCompleteException("execution " + executionId + " COMPLETED; only a STOPPED "
                    + "or FAILED execution can be abandoned");
        }
        if (execution.status() == ExecutionStatus.ABANDONED) {
            return;
        }
        try {
            kernel.abandon(execution.id(), OperatorCall.by(ACTOR));
        } catch (RepositoryException e) {
            if (e.error() == RepositoryError.EXECUTION_SUPERSEDED) {
                throw new JobExecutionNotMostRecentException("execution " + executionId + " cannot be abandoned: "
                        + e.getMessage(), e);
            }
            throw e;
        }
    }

    // Reading

    /** The job XMLs that have at least one instance: the names the repository knows. */
    @Override
    public Set<String> getJobNames() {
        return read(() -> {
            Set<String> names = new TreeSet<>();
            for (String name : jobs.names()) {
                if (kernelName(name).filter(this::hasInstances).isPresent()) {
                    names.add(name);
                }
            }
            return names;
        });
    }

    @Override
    public int getJobInstanceCount(String jobName) {
        return read(() -> {
            long count = repository.countJobInstances(jobNameOf(jobName));
            if (count == 0) {
                throw unknownJob(jobName);
            }
            return (int) Math.min(Integer.MAX_VALUE, count);
        });
    }

    /** Newest first, as the specification orders them. */
    @Override
    public List<JobInstance> getJobInstances(String jobName, int start, int count) {
        return read(() -> instances(jobName, start, count));
    }

    @Override
    public List<Long> getRunningExecutions(String jobName) {
        return read(() -> {
            JobName name = knownJob(jobName);
            List<Long> running = new ArrayList<>();
            ExecutionQuery query = ExecutionQuery.all().job(name).statuses(BatchStatuses.RUNNING);
            Page<io.durablebatch.execution.JobExecution> page = repository.findJobExecutions(query,
                    PageRequest.first(PageRequest.MAX_SIZE));
            while (true) {
                page.items().forEach(execution -> running.add(execution.id().value()));
                if (page.next().isEmpty()) {
                    return running;
                }
                page = repository.findJobExecutions(query, PageRequest.after(page.next().get(), PageRequest.MAX_SIZE));
            }
        });
    }

    @Override
    public Properties getParameters(long executionId) {
        return JakartaParameters.properties(execution(executionId).parameters());
    }

    @Override
    public JobInstance getJobInstance(long executionId) {
        io.durablebatch.execution.JobExecution execution = execution(executionId);
        return JakartaJobInstance.of(read(() -> repository.getJobInstance(execution.jobInstanceId())).orElseThrow());
    }

    @Override
    public List<JobExecution> getJobExecutions(JobInstance instance) {
        if (instance == null) {
            throw new NoSuchJobInstanceException("no job instance given");
        }
        return read(() -> {
            JobInstanceId id = instanceId(instance.getInstanceId());
            repository.getJobInstance(id).filter(found -> jobs.names().contains(found.jobName().value()))
                    .orElseThrow(() -> new NoSuchJobInstanceException("no job instance " + instance.getInstanceId()));
            return repository.jobExecutions(id).stream().<JobExecution> map(JakartaJobExecution::new).toList();
        });
    }

    @Override
    public JobExecution getJobExecution(long executionId) {
        return new JakartaJobExecution(execution(executionId));
    }

    @Override
    public List<StepExecution> getStepExecutions(long jobExecutionId) {
        io.durablebatch.execution.JobExecution execution = execution(jobExecutionId);
        return read(() -> repository.stepExecutions(execution.id())).stream()
                .filter(step -> !PartitionWorkerSteps.isWorker(step.stepName().value())) // one per partitioned step
                .<StepExecution> map(JakartaStepExecution::new).toList();
    }

    /** The instances of a job XML, newest first, from {@code start}; refused if it has none. */
    private List<JobInstance> instances(String jobName, int start, int count) {
        JobName name = jobNameOf(jobName);
        Page<io.durablebatch.execution.JobInstance> page = repository.findJobInstances(name,
                PageRequest.first(PageRequest.MAX_SIZE));
        if (page.items().isEmpty()) {
            throw unknownJob(jobName);
        }
        List<JobInstance> instances = new ArrayList<>();
        int skipped = 0;
        while (instances.size() < count) {
            for (io.durablebatch.execution.JobInstance instance : page.items()) {
                if (skipped++ >= start && instances.size() < count) {
                    instances.add(JakartaJobInstance.of(instance));
                }
            }
            if (page.next().isEmpty()) {
                break;
            }
            page = repository.findJobInstances(name, PageRequest.after(page.next().get(), PageRequest.MAX_SIZE));
        }
        return instances;
    }

    /** A job XML with at least one instance, as the specification's "known job"; in a transaction. */
    private JobName knownJob(String jobName) {
        JobName name = jobNameOf(jobName);
        if (!hasInstances(name)) {
            throw unknownJob(jobName);
        }
        return name;
    }

    /** The kernel's name of a job XML, refused as unknown where there is none. */
    private JobName jobNameOf(String jobName) {
        return kernelName(jobName).orElseThrow(() -> unknownJob(jobName));
    }

    /** The kernel's name of a job XML; none for another name, or one the kernel cannot hold (it has no instance). */
    private Optional<JobName> kernelName(String jobName) {
        if (jobName == null || !jobs.names().contains(jobName)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JobName.of(jobName));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static NoSuchJobException unknownJob(String jobName) {
        return new NoSuchJobException("no job " + jobName + " is known: it has no job instance");
    }

    private boolean hasInstances(JobName name) {
        return !repository.findJobInstances(name, PageRequest.first(1)).items().isEmpty();
    }

    /**
     * The execution of a job XML with this id: the kernel operator's read of one row, which joins the
     * caller's transaction and needs none (a caller polls it: {@link #getJobExecution}).
     */
    private io.durablebatch.execution.JobExecution execution(long executionId) {
        if (executionId <= 0) {
            throw new NoSuchJobExecutionException("no job execution " + executionId);
        }
        return kernel.execution(JobExecutionId.of(executionId))
                .filter(execution -> jobs.names().contains(execution.jobName().value()))
                .orElseThrow(() -> new NoSuchJobExecutionException("no job execution " + executionId));
    }

    private static JobInstanceId instanceId(long id) {
        if (id <= 0) {
            throw new NoSuchJobInstanceException("no job instance " + id);
        }
        return JobInstanceId.of(id);
    }

    /** Repository reads join the caller's transaction, or run in their own. */
    private static <T> T read(Supplier<T> read) {
        return QuarkusTransaction.joiningExisting().call(read::get);
    }
}
