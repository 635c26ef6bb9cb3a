package io.durablebatch.jakarta.runtime.operator;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

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

    /** The statuses that count as running: the active ones, and UNKNOWN (shown STARTED). */
    static final Set<ExecutionStatus> RUNNING = Collections.unmodifiableSet(EnumSet.copyOf(
            Arrays.stream(ExecutionStatus.values()).filter(s -> s.isActive() || s == ExecutionStatus.UNKNOWN).toList()));

    /** Whether the execution counts as running: see {@link #RUNNING}. */
    static boolean running(ExecutionStatus status) {
        return RUNNING.contains(status);
    }
}
