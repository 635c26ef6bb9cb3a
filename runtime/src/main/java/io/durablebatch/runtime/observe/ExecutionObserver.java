package io.durablebatch.runtime.observe;

import io.durablebatch.context.StepContext;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.runtime.metrics.KernelMetrics;

/**
 * What the kernel tells an observer of its executions (spans, log context, meters), at the boundaries
 * of a job execution, a step attempt (a partition's worker included), a chunk and a partition plan's
 * poll. The kernel calls {@link ExecutionObservers}, which holds the observers the build registered:
 * each lives in a bean that exists only where its library does, so without them nothing of theirs is
 * loaded and every call here is a no-op.
 */
public interface ExecutionObserver {

    /** The observation of a job execution or a step attempt, opened on the thread that runs it. */
    interface Observation<T> extends AutoCloseable {

        /** Observes nothing. */
        @SuppressWarnings("rawtypes")
        Observation NONE = new Observation() {
        };

        /** The record its runner ended it with. */
        default void ended(T recorded) {
        }

        /** A failure that escaped its runner (its end then unrecorded: left to recovery). */
        default void failed(Throwable failure) {
        }

        /** Called last, on the thread that opened it, whatever happened: restores that thread. */
        @Override
        default void close() {
        }

        @SuppressWarnings("unchecked")
        static <T> Observation<T> none() {
            return NONE;
        }
    }

    /**
     * A step attempt as observers see it: its context (job, execution, step, the partition a worker
     * runs), its record as it started, and whether it is a partitioned step's (the parent of workers
     * that any process may run).
     */
    record ObservedStep(StepContext context, StepExecution attempt, boolean partitioned) {
    }

    /**
     * On the launching thread (an HTTP request's, a schedule's, an operator's), as the launch hands the
     * execution to the kernel's threads: what the execution is to be linked to. {@code null} for nothing.
     */
    default Object launching(JobExecution execution) {
        return null;
    }

    /** A job execution starts running on this thread; {@code launch} is what {@link #launching} returned. */
    default Observation<JobExecution> job(JobExecution execution, Object launch) {
        return Observation.none();
    }

    /** A step attempt starts running on this thread. */
    default Observation<StepExecution> step(ObservedStep step) {
        return Observation.none();
    }

    /** The observer of a step attempt's chunks, asked once per attempt on its thread; {@code null} for none. */
    default KernelMetrics.ChunkMeter chunks(String job, String step) {
        return null;
    }

    /** A partitioned step's parent polled its plan: partitions waiting for a worker, and running. */
    default void partitionsPolled(JobName job, StepExecution parent, long unassigned, long running) {
    }

    /** A partitioned step's parent ended: its plan hands out no more work. */
    default void partitionsEnded(JobName job, StepExecution parent) {
    }
}
