package io.durablebatch.job;

import java.util.List;

import io.durablebatch.Checks;
import io.durablebatch.listener.BatchListener;
import io.durablebatch.listener.ChunkListener;
import io.durablebatch.listener.Listeners;
import io.durablebatch.listener.StepListener;

/** A step that calls one {@link Tasklet} until it is finished. */
public final class TaskletStep implements Step {

    private final StepSettings settings;
    private final Tasklet tasklet;
    private final Listeners listeners;

    TaskletStep(StepSettings settings, Tasklet tasklet) {
        this(settings, tasklet, Listeners.NONE);
    }

    private TaskletStep(StepSettings settings, Tasklet tasklet, Listeners listeners) {
        this.settings = Checks.notNull(settings, "step.settings");
        this.tasklet = Checks.notNull(tasklet, "tasklet");
        this.listeners = listeners;
    }

    @Override
    public StepSettings settings() {
        return settings;
    }

    @Override
    public String kind() {
        return "tasklet";
    }

    public Tasklet tasklet() {
        return tasklet;
    }

    /** This step under another node id, e.g. to keep a renamed step's history. */
    public TaskletStep withId(String nodeId) {
        return new TaskletStep(settings.withNodeId(nodeId), tasklet, listeners);
    }

    @Override
    public TaskletStep withStartLimit(int startLimit) {
        return new TaskletStep(settings.withStartLimit(startLimit), tasklet, listeners);
    }

    @Override
    public TaskletStep withStartLimit(ParameterizedValue startLimit) {
        return new TaskletStep(settings.withStartLimit(startLimit), tasklet, listeners);
    }

    @Override
    public TaskletStep withAllowStartIfComplete(boolean allowStartIfComplete) {
        return new TaskletStep(settings.withAllowStartIfComplete(allowStartIfComplete), tasklet, listeners);
    }

    @Override
    public TaskletStep withAllowStartIfComplete(ParameterizedValue allowStartIfComplete) {
        return new TaskletStep(settings.withAllowStartIfComplete(allowStartIfComplete), tasklet, listeners);
    }

    /** The listeners declared on this step, in declaration order; not part of the plan. */
    public Listeners listeners() {
        return listeners;
    }

    /**
     * This step with a listener of its attempts ({@link StepListener}) and of its tasklet's calls,
     * each one transaction ({@link ChunkListener}), called after the CDI beans and the job's
     * listeners, in declaration order.
     */
    public TaskletStep listener(BatchListener listener) {
        return new TaskletStep(settings, tasklet, listeners.with(listener, "tasklet step '" + settings.name() + "'",
                List.of(StepListener.class, ChunkListener.class)));
    }

    @Override
    public String toString() {
        return "TaskletStep[" + settings.nodeId() + "]";
    }
}
