package io.durablebatch.runtime.jakarta.execution;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import jakarta.batch.api.Batchlet;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.listener.JobEvent;
import io.durablebatch.listener.JobListener;
import io.quarkus.arc.Arc;

/**
 * What this process knows of the Jakarta executions it runs: the {@code JobContext} their steps
 * share, and the batchlet each is running now, which {@code JobOperator.stop} asks to stop.
 */
@Singleton
public class ExecutionContexts {

    private static final Logger LOG = Logger.getLogger(ExecutionContexts.class);

    private final Map<Long, JakartaJobContext> jobs = new ConcurrentHashMap<>();
    private final Map<Long, Running> running = new ConcurrentHashMap<>();

    /** A batchlet being run, and whether it was asked to stop. */
    static final class Running {
        private final Batchlet batchlet;
        private volatile boolean stopRequested;

        Running(Batchlet batchlet) {
            this.batchlet = batchlet;
        }

        boolean stopRequested() {
            return stopRequested;
        }
    }

    JakartaJobContext job(long executionId, Supplier<JakartaJobContext> created) {
        return jobs.computeIfAbsent(executionId, id -> created.get());
    }

    void started(long executionId, Running batchlet) {
        running.put(executionId, batchlet);
    }

    void ended(long executionId) {
        running.remove(executionId);
    }

    /**
     * Calls {@code stop()} of the batchlet the execution runs here, if any; its step then ends
     * STOPPED once {@code process()} returns. The kernel's stop must have been requested first, so
     * the step sees it when the batchlet returns.
     */
    public void stop(long executionId) {
        Optional.ofNullable(jobs.get(executionId)).ifPresent(JakartaJobContext::stopping);
        Running batchlet = running.get(executionId);
        if (batchlet == null) {
            return;
        }
        batchlet.stopRequested = true;
        try {
            batchlet.batchlet.stop();
        } catch (Exception e) {
            // the stop was requested all the same: the step stops at its next boundary
            LOG.warnf(e, "stop() of the batchlet of execution %d failed", executionId);
        }
    }

    /** Drops an execution's contexts when it ends: a job listener of every translated job. */
    public static final class Cleanup implements JobListener {
        @Override
        public void afterJob(JobEvent job) {
            ExecutionContexts contexts = Arc.container().instance(ExecutionContexts.class).get();
            long id = job.execution().id().value();
            contexts.jobs.remove(id);
            contexts.running.remove(id);
        }
    }
}
