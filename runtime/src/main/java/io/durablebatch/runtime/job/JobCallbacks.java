package io.durablebatch.runtime.job;

import java.util.List;

import org.jboss.logging.Logger;

import io.durablebatch.listener.JobEndListener;
import io.durablebatch.listener.JobEnding;
import io.durablebatch.listener.JobEvent;
import io.durablebatch.listener.JobListener;

/** The job listeners of one execution, in calling order; "after" and end callbacks run in reverse. */
final class JobCallbacks {

    private static final Logger LOG = Logger.getLogger(JobCallbacks.class);

    private final JobListener[] listeners;
    private final JobEndListener[] endListeners;

    JobCallbacks(List<JobListener> listeners, List<JobEndListener> endListeners) {
        this.listeners = listeners.toArray(JobListener[]::new);
        this.endListeners = endListeners.toArray(JobEndListener[]::new);
    }

    /** Whether the job has no {@link JobListener}: nothing runs between its launch and its first step. */
    boolean isEmpty() {
        return listeners.length == 0;
    }

    /** Whether a {@link JobEndListener} runs between the flow's end and its record, which then cannot join a step's. */
    boolean listensBeforeEnd() {
        return endListeners.length > 0;
    }

    /** Calls {@code beforeJob} in order; the first that throws ends the calls and fails the job. */
    void beforeJob(JobEvent run) {
        for (JobListener listener : listeners) {
            listener.beforeJob(run);
        }
    }

    /**
     * Calls {@code beforeJobEnd} in reverse order, each of them; returns the first failure (which
     * fails the execution), or null.
     */
    Throwable beforeJobEnd(JobEnding ending) {
        Throwable first = null;
        for (int i = endListeners.length - 1; i >= 0; i--) {
            try {
                endListeners[i].beforeJobEnd(ending);
            } catch (RuntimeException | Error e) {
                LOG.errorf(e, "Listener %s failed in beforeJobEnd of job '%s' execution %s: the execution fails",
                        endListeners[i], ending.jobName(), ending.execution().id());
                first = first == null ? e : first;
            }
        }
        return first;
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
