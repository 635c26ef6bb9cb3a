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

    /**
     * Whether a listener class has a {@code beforeJob} of its own: one that only listens to the end
     * (JobListener's {@code beforeJob} does nothing) needs nothing to run before the first step.
     */
    private static final ClassValue<Boolean> HAS_BEFORE_JOB = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("beforeJob", JobEvent.class).getDeclaringClass() != JobListener.class;
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("a JobListener without beforeJob: " + type, e);
            }
        }
    };

    private final JobListener[] listeners;
    private final JobEndListener[] endListeners;
    private final boolean listensBeforeJob;

    JobCallbacks(List<JobListener> listeners, List<JobEndListener> endListeners) {
        this.listeners = listeners.toArray(JobListener[]::new);
        this.endListeners = endListeners.toArray(JobEndListener[]::new);
        boolean before = false;
        for (JobListener listener : this.listeners) {
            before |= HAS_BEFORE_JOB.get(listener.getClass());
        }
        this.listensBeforeJob = before;
    }

    /**
     * Whether a listener's {@code beforeJob} runs between the launch and the first step, which the
     * launch then cannot start in its own transaction. A listener of the end only (as the Jakarta
     * layer's cleanup of its contexts) leaves the launch as cheap as none.
     */
    boolean listensBeforeJob() {
        return listensBeforeJob;
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
