package io.durablebatch.runtime.metrics;

import jakarta.enterprise.inject.Instance;

import io.durablebatch.execution.ExecutionStatus;

/**
 * What the kernel measures. The bean exists only in an application with Micrometer
 * ({@code quarkus-micrometer}); without it the kernel uses {@link #NONE}, which measures nothing.
 */
public interface KernelMetrics {

    /** Measures a step's committed chunks. */
    interface ChunkMeter {

        /** Measures nothing. */
        ChunkMeter NONE = (read, written, skipped, nanos) -> {
        };

        /** A chunk committed: its items read, written and skipped, and its transaction's time. */
        void committed(long read, long written, long skipped, long nanos);
    }

    /** Measures nothing. */
    KernelMetrics NONE = new KernelMetrics() {
    };

    /** The application's metrics bean, or {@link #NONE} where there is none. */
    static KernelMetrics of(Instance<KernelMetrics> bean) {
        return bean.isResolvable() ? bean.get() : NONE;
    }

    /** An execution of the job started running in this process. */
    default void executionStarted(String job) {
    }

    /** An execution of the job that ran in this process ended, or left it, with this status. */
    default void executionEnded(String job, ExecutionStatus status) {
    }

    /** The meter of a step's chunks, looked up once per step attempt. */
    default ChunkMeter chunks(String job, String step) {
        return ChunkMeter.NONE;
    }

    /** An execution of the job whose lease ran out was recovered by this process. */
    default void recovered(String job) {
    }

    /** An execution of the job that lost its owner was restarted by this process. */
    default void restartedOnOwnerLoss(String job) {
    }

    /** A renewal of this process's leases failed (the database did not confirm it). */
    default void renewalFailed() {
    }

    /** A sweep for executions whose lease ran out failed. */
    default void sweepFailed() {
    }

    /** A fire of the job's schedule launched its instance (counted by the replica that recorded it). */
    default void scheduleFired(String job) {
    }

    /** Fire times of the job's schedule passed while no replica ran (counted by the replica that caught up). */
    default void scheduleMisfired(String job, long fires) {
    }

    /** A fire of the job's schedule was skipped, for this reason (a {@code FireOutcome} name). */
    default void scheduleSkipped(String job, String reason, long fires) {
    }
}
