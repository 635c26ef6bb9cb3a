package io.durablebatch.runtime.observe;

import jakarta.inject.Singleton;

import org.jboss.logging.MDC;

import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;

/**
 * The log context of an execution: while the kernel runs a job execution or a step attempt on a
 * thread, the MDC names them, so every line logged there (the kernel's, and the application's own in
 * its readers, processors, writers and listeners) carries {@value #JOB_NAME}, {@value #JOB_EXECUTION_ID},
 * {@value #STEP_NAME}, {@value #STEP_EXECUTION_ID} and, on a partition's worker, {@value #PARTITION}.
 * A JSON log ({@code quarkus-logging-json}) writes them as fields under {@code mdc}. The thread gives
 * them back when it returns to its pool: the kernel's pool threads keep the MDC in an inheritable
 * thread-local, so a value left behind would name the wrong execution on the next line.
 */
@Singleton
public class LogContext implements ExecutionObserver {

    public static final String JOB_NAME = "jobName";
    public static final String JOB_EXECUTION_ID = "jobExecutionId";
    public static final String STEP_NAME = "stepName";
    public static final String STEP_EXECUTION_ID = "stepExecutionId";
    public static final String PARTITION = "partition";

    @Override
    public Observation<JobExecution> job(JobExecution execution, Object launch) {
        Object job = MDC.put(JOB_NAME, execution.jobName().value());
        Object id = MDC.put(JOB_EXECUTION_ID, Long.toString(execution.id().value()));
        return new Observation<>() {
            @Override
            public void close() {
                restore(JOB_NAME, job);
                restore(JOB_EXECUTION_ID, id);
            }
        };
    }

    @Override
    public Observation<StepExecution> step(ObservedStep step) {
        StepContext context = step.context();
        String execution = Long.toString(context.jobExecutionId().value());
        // on a thread of its job's execution the job's fields stay once the step ends; on a worker's
        // thread (a partition, a split's flow) nothing of it stays
        boolean inJob = execution.equals(MDC.get(JOB_EXECUTION_ID));
        Object stepName = MDC.put(STEP_NAME, context.stepName().value());
        Object stepId = MDC.put(STEP_EXECUTION_ID, Long.toString(context.stepExecutionId().value()));
        Object partition = context.partition().isPresent()
                ? MDC.put(PARTITION, context.partition().map(PartitionContext::key).get())
                : MDC.get(PARTITION);
        if (!inJob) {
            MDC.put(JOB_NAME, context.jobName().value());
            MDC.put(JOB_EXECUTION_ID, execution);
        }
        return new Observation<>() {
            @Override
            public void close() {
                if (inJob) {
                    restore(STEP_NAME, stepName);
                    restore(STEP_EXECUTION_ID, stepId);
                    restore(PARTITION, partition);
                } else {
                    MDC.remove(STEP_NAME);
                    MDC.remove(STEP_EXECUTION_ID);
                    MDC.remove(PARTITION);
                    MDC.remove(JOB_NAME);
                    MDC.remove(JOB_EXECUTION_ID);
                }
            }
        };
    }

    private static void restore(String key, Object previous) {
        if (previous == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, previous);
        }
    }
}
