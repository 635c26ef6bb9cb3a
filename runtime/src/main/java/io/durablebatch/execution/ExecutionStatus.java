package io.durablebatch.execution;

import java.util.EnumSet;
import java.util.Set;

/**
 * The lifecycle status of a job or step execution.
 *
 * <pre>
 * from                 allowed to
 * STARTING             STARTED, FAILED, STOPPED
 * STARTED              STOPPING, COMPLETED, FAILED, UNKNOWN
 * STOPPING             STOPPED, FAILED, COMPLETED, UNKNOWN
 * STOPPED, FAILED      ABANDONED
 * COMPLETED, ABANDONED nothing
 * UNKNOWN              only through recovery
 * </pre>
 *
 * A step may additionally record progress while it stays {@code STARTED}.
 */
public enum ExecutionStatus {
    STARTING,
    STARTED,
    STOPPING,
    STOPPED,
    FAILED,
    COMPLETED,
    ABANDONED,
    UNKNOWN;

    private static final Set<ExecutionStatus> ACTIVE = EnumSet.of(STARTING, STARTED, STOPPING);

    /** STARTING, STARTED or STOPPING: an attempt that is (or believes it is) still running. */
    public boolean isActive() {
        return ACTIVE.contains(this);
    }

    /** COMPLETED or ABANDONED: the instance can never get another attempt. */
    public boolean isTerminalForInstance() {
        return this == COMPLETED || this == ABANDONED;
    }

    /** STOPPED or FAILED: the latest attempt may be followed by a restart. */
    public boolean isRestartable() {
        return this == STOPPED || this == FAILED;
    }

    /** Whether the lifecycle table lets an execution move from this status to {@code target}. */
    public boolean canTransitionTo(ExecutionStatus target) {
        return allowedTargets().contains(target);
    }

    /** The statuses the lifecycle table allows from this one (recovery aside). */
    public Set<ExecutionStatus> allowedTargets() {
        return switch (this) {
            case STARTING -> EnumSet.of(STARTED, FAILED, STOPPED);
            case STARTED -> EnumSet.of(STOPPING, COMPLETED, FAILED, UNKNOWN);
            case STOPPING -> EnumSet.of(STOPPED, FAILED, COMPLETED, UNKNOWN);
            case STOPPED, FAILED -> EnumSet.of(ABANDONED);
            case COMPLETED, ABANDONED, UNKNOWN -> EnumSet.noneOf(ExecutionStatus.class);
        };
    }

    /** The statuses from which the lifecycle table allows a move to this one. */
    public Set<ExecutionStatus> allowedSources() {
        Set<ExecutionStatus> sources = EnumSet.noneOf(ExecutionStatus.class);
        for (ExecutionStatus source : values()) {
            if (source.canTransitionTo(this)) {
                sources.add(source);
            }
        }
        return sources;
    }

    /** Active statuses and UNKNOWN: an attempt that blocks any new attempt of its instance. */
    public boolean isUnresolved() {
        return isActive() || this == UNKNOWN;
    }
}
