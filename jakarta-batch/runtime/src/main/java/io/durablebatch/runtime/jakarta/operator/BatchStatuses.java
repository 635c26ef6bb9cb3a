package io.durablebatch.runtime.jakarta.operator;

import jakarta.batch.runtime.BatchStatus;

import io.durablebatch.execution.ExecutionStatus;

/** The kernel's execution statuses as Jakarta batch statuses. */
final class BatchStatuses {

    private BatchStatuses() {
    }

    /**
     * One to one, but for UNKNOWN, which Jakarta lacks: an execution whose end could not be
     * recorded (its owner lost the repository mid-end) until an operator or the lease sweeper
     * recovers it. It is shown as STARTED: like a running execution it can be neither restarted nor
     * abandoned, and it is still to end; FAILED would invite a restart that is refused, and a poller
     * waiting for the end would stop waiting on an outcome nobody knows.
     */
    static BatchStatus of(ExecutionStatus status) {
        return switch (status) {
            case STARTING -> BatchStatus.STARTING;
            case STARTED, UNKNOWN -> BatchStatus.STARTED;
            case STOPPING -> BatchStatus.STOPPING;
            case STOPPED -> BatchStatus.STOPPED;
            case FAILED -> BatchStatus.FAILED;
            case COMPLETED -> BatchStatus.COMPLETED;
            case ABANDONED -> BatchStatus.ABANDONED;
        };
    }

    /** Whether the execution counts as running: active, or UNKNOWN (shown STARTED). */
    static boolean running(ExecutionStatus status) {
        return status.isActive() || status == ExecutionStatus.UNKNOWN;
    }
}
