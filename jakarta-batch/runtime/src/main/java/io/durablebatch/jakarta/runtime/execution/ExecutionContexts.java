package io.durablebatch.jakarta.runtime.execution;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.batch.api.Batchlet;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.context.JobContext;
import io.durablebatch.jakarta.runtime.artifact.BatchArtifacts;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;
import io.durablebatch.listener.JobEvent;
import io.durablebatch.listener.JobListener;
import io.quarkus.arc.Arc;

/**
 * What this process knows of the Jakarta executions it runs: the {@code JobContext} their steps
 * and job listeners share, the job listener artifacts of each (resolved before the job, called again
 * after it), and the batchlet each is running now, which {@code JobOperator.stop} asks to stop.
 */
@Singleton
public class ExecutionContexts {

    private static final Logger LOG = Logger.getLogger(ExecutionContexts.class);

    private final Map<Long, JakartaJobContext> jobs = new ConcurrentHashMap<>();
    /** The copies the flows of splits have, by the kernel's view of the job's context each flow runs with. */
    private final Map<JobContext, JakartaJobContext> flows = new ConcurrentHashMap<>();
    /** The batchlets each execution runs here: one, or one per local partition of a partitioned step. */
    private final Map<Long, Set<Running>> running = new ConcurrentHashMap<>();
    private final Map<Long, List<BatchArtifacts.Resolved<jakarta.batch.api.listener.JobListener>>> jobListeners = new ConcurrentHashMap<>();
    /** The partitioned steps running here on their own thread, by step execution id. */
    private final Map<Long, PartitionedStepRun> partitionedSteps = new ConcurrentHashMap<>();

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

    /**
     * The {@code JobContext} of the execution {@code kernel} is the context of, created by its first
     * artifact; in a flow of a split, the flow's own copy of it, one per kernel view of the job's
     * context (each flow of a split runs with one of its own).
     */
    JakartaJobContext job(JslJob job, JobContext kernel) {
        JakartaJobContext main = jobs.computeIfAbsent(kernel.jobExecutionId().value(), id -> new JakartaJobContext(
                job.id(), kernel, PropertyScope.ofExecution(JakartaParameters.strings(kernel.parameters()))
                        .enter(job.properties())));
        return kernel.inSplitFlow() ? flows.computeIfAbsent(kernel, flow -> main.forFlow()) : main;
    }

    void listenedBy(long executionId, List<BatchArtifacts.Resolved<jakarta.batch.api.listener.JobListener>> listeners) {
        jobListeners.put(executionId, listeners);
    }

    /** The job listener artifacts resolved before the execution's first step, handed over to be called after its end. */
    List<BatchArtifacts.Resolved<jakarta.batch.api.listener.JobListener>> listenersOf(long executionId) {
        List<BatchArtifacts.Resolved<jakarta.batch.api.listener.JobListener>> listeners = jobListeners.remove(executionId);
        return listeners == null ? List.of() : listeners;
    }

    Optional<PartitionedStepRun> partitionedStep(long stepExecutionId) {
        return Optional.ofNullable(partitionedSteps.get(stepExecutionId));
    }

    void partitionedStep(long stepExecutionId, PartitionedStepRun run) {
        partitionedSteps.put(stepExecutionId, run);
    }

    void partitionedStepEnded(long stepExecutionId) {
        Optional.ofNullable(partitionedSteps.remove(stepExecutionId)).ifPresent(PartitionedStepRun::close);
    }

    void started(long executionId, Running batchlet) {
        running.computeIfAbsent(executionId, id -> ConcurrentHashMap.newKeySet()).add(batchlet);
    }

    void ended(long executionId, Running batchlet) {
        running.computeIfPresent(executionId, (id, batchlets) -> {
            batchlets.remove(batchlet);
            return batchlets.isEmpty() ? null : batchlets;
        });
    }

    /**
     * Calls {@code stop()} of the batchlets the execution runs here (one per local partition of a
     * partitioned step), if any; their step then ends
     * STOPPED once {@code process()} returns. The kernel's stop must have been requested first, so
     * the step sees it when the batchlet returns.
     */
    public void stop(long executionId) {
        Optional.ofNullable(jobs.get(executionId)).ifPresent(JakartaJobContext::stopping);
        for (Running batchlet : running.getOrDefault(executionId, Set.of())) {
            batchlet.stopRequested = true;
            try {
                batchlet.batchlet.stop();
            } catch (Exception e) {
                // the stop was requested all the same: the step stops at its next boundary
                LOG.warnf(e, "stop() of a batchlet of execution %d failed", executionId);
            }
        }
    }

    /** Drops an execution's contexts when it ends: a job listener of every translated job. */
    public static final class Cleanup implements JobListener {
        @Override
        public void afterJob(JobEvent job) {
            ExecutionContexts contexts = Arc.container().instance(ExecutionContexts.class).get();
            long id = job.execution().id().value();
            contexts.jobs.remove(id);
            contexts.flows.keySet().removeIf(flow -> flow.jobExecutionId().value() == id);
            contexts.running.remove(id);
            // partitioned steps that ended without all their partitions (stopped, or failed before)
            contexts.partitionedSteps.entrySet().removeIf(entry -> {
                if (entry.getValue().executionId != id) {
                    return false;
                }
                entry.getValue().close();
                return true;
            });
            // listeners whose afterJob did not run (the end was not this process's to record)
            contexts.listenersOf(id).forEach(BatchArtifacts.Resolved::close);
        }
    }
}
