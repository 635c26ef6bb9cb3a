package io.durablebatch.jakarta.runtime.execution;

import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.listener.JobEndListener;
import io.durablebatch.listener.JobEnding;
import io.durablebatch.listener.JobEvent;
import io.durablebatch.listener.JobListener;
import io.quarkus.arc.Arc;

/**
 * A job's {@code <listeners>} as one kernel listener: the Jakarta {@code beforeJob} in the kernel's,
 * once the execution is recorded STARTED; the Jakarta {@code afterJob} in {@link JobEndListener#beforeJobEnd},
 * so the exit status it sets is recorded with the end (the kernel's {@code afterJob} runs only once the
 * end is recorded). Holds only the JSL: the artifacts are resolved per execution by {@link JobListenerRuns}.
 */
public final class JslJobListener implements JobListener, JobEndListener {

    private final JslJob job;

    public JslJobListener(JslJob job) {
        this.job = job;
    }

    @Override
    public void beforeJob(JobEvent event) {
        try {
            runs().beforeJob(job, event.context());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new JobListenerException("beforeJob", e);
        }
    }

    @Override
    public void beforeJobEnd(JobEnding ending) {
        try {
            runs().afterJob(job, ending);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new JobListenerException("afterJob", e);
        }
    }

    private static JobListenerRuns runs() {
        return Arc.container().instance(JobListenerRuns.class).get();
    }

    @Override
    public String toString() {
        return "JslJobListener[" + job.name() + "]";
    }

    /** A checked exception of a Jakarta job listener, which fails the execution as it does. */
    static final class JobListenerException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        JobListenerException(String callback, Exception cause) {
            super(callback + " of a job listener failed: " + cause, cause);
        }
    }
}
