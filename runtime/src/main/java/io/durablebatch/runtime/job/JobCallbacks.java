package io.durablebatch.runtime.job;

import java.util.List;

import org.jboss.logging.Logger;

import io.durablebatch.listener.JobEvent;
import io.durablebatch.listener.JobListener;

/** The job listeners of one execution, in calling order; "after" callbacks run in reverse. */
final class JobCallbacks {

    private static final Logger LOG = Logger.getLogger(JobCallbacks.class);

    private final JobListener[] listeners;

    JobCallbacks(List<JobListener> listeners) {
        this.listeners = listeners.toArray(JobListener[]::new);
    }

    /** Whether the job has no listener: nothing runs between its launch and its first step. */
    boolean isEmpty() {
        return listeners.length == 0;
    }

    /** Calls {@code beforeJob} in order; the first that throws ends the calls and fails the job. */
    void beforeJob(JobEvent run) {
        for (JobListener listener : listeners) {
            listener.beforeJob(run);
        }
    }

    /** Calls {@code afterJob} in reverse order; one that throws is logged, the others are still called. */
    void afterJob(JobEvent run) {
        for (int i = listeners.length - 1; i >= 0; i--) {
            try {
                listeners[i].afterJob(run);
            } catch (RuntimeException | Error e) {
                LOG.errorf(e, "Listener %s failed in afterJob of job '%s' execution %s; its recorded end %s stands",
                        listeners[i], run.jobName(), run.execution().id(), run.execution().status());
            }
        }
    }
}
