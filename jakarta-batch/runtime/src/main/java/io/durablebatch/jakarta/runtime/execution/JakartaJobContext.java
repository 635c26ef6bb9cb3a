package io.durablebatch.jakarta.runtime.execution;

import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.context.JobContext;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;

/**
 * The {@link JobContext} of one running execution, shared by its steps and its job listeners: one
 * per execution in this process, dropped when the execution ends. Its exit status is the kernel's
 * job context's, so the one an artifact sets last is the one the execution's end records.
 */
final class JakartaJobContext extends ElementContext implements JobContext {

    private final String jobName;
    private final io.durablebatch.context.JobContext kernel;
    private final PropertyScope scope;
    /** The execution's own context, when this is a partition's copy: whether a stop was asked is its. */
    private final JakartaJobContext main;
    private volatile boolean stopping;
    private volatile BatchStatus ending;
    /** A partition's copy's own exit status: setting it does not set the job's. */
    private volatile String partitionExitStatus;

    /** @param scope the job's {@code <properties>} as the execution resolves them */
    JakartaJobContext(String jobName, io.durablebatch.context.JobContext kernel, PropertyScope scope) {
        this(jobName, kernel, scope, null);
    }

    private JakartaJobContext(String jobName, io.durablebatch.context.JobContext kernel, PropertyScope scope,
            JakartaJobContext main) {
        super(scope.properties());
        this.jobName = jobName;
        this.kernel = kernel;
        this.scope = scope;
        this.main = main;
    }

    /**
     * The copy a partition gets, as the specification wants: the same job and properties, but
     * transient user data and an exit status of its own (starting from the job's).
     */
    JakartaJobContext forPartition() {
        // a copy of a flow's copy (a partition in a split) still asks the execution's own whether it stops
        JakartaJobContext copy = new JakartaJobContext(jobName, kernel, scope, main == null ? this : main);
        copy.partitionExitStatus = getExitStatus();
        return copy;
    }

    /**
     * The copy a flow of a split gets, as the specification wants (each flow runs with a job context
     * of its own): the same job and properties, but transient user data and an exit status of its own,
     * so what a flow sets does not become the job's.
     */
    JakartaJobContext forFlow() {
        return forPartition();
    }

    /** The scope the properties of the job's steps and listeners start from. */
    PropertyScope scope() {
        return scope;
    }

    /** The {@code id} of the job XML's {@code <job>}, as the specification defines the job name. */
    @Override
    public String getJobName() {
        return jobName;
    }

    @Override
    public long getInstanceId() {
        return kernel.jobInstanceId().value();
    }

    @Override
    public long getExecutionId() {
        return kernel.jobExecutionId().value();
    }

    /** STARTED, or STOPPING once a stop was asked for; in {@code afterJob}, the status the end records. */
    @Override
    public BatchStatus getBatchStatus() {
        BatchStatus ended = ending;
        return ended != null ? ended : stopping || main != null && main.stopping ? BatchStatus.STOPPING : BatchStatus.STARTED;
    }

    /** The exit status set last (by an artifact, or by the {@code exit-status} of the end taken), or null. */
    @Override
    public String getExitStatus() {
        if (main != null) {
            return partitionExitStatus;
        }
        return kernel.exitStatus().map(ExitStatus::code).orElse(null);
    }

    /**
     * Sets the exit status the execution ends with, whatever its batch status; null takes it back
     * (the job's exit status is then its batch status, as the specification says).
     *
     * @throws IllegalArgumentException for a text the repository cannot keep (blank, longer than 100
     *         characters, or with control characters)
     */
    @Override
    public void setExitStatus(String status) {
        if (main != null) {
            partitionExitStatus = status; // the copy's own, as the specification's partition copies
            return;
        }
        if (status == null) {
            kernel.clearExitStatus();
            return;
        }
        ExitStatus exitStatus;
        try {
            exitStatus = ExitStatus.of(status);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("JobContext.setExitStatus of job " + jobName + ": " + e.getMessage(), e);
        }
        kernel.setExitStatus(exitStatus);
    }

    void stopping() {
        stopping = true;
    }

    /** The flow ended: {@code afterJob} sees the batch status the end records. */
    void ending(BatchStatus status) {
        ending = status;
    }
}
