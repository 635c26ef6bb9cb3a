package io.durablebatch.job;

import io.durablebatch.Checks;

/** A step that calls one {@link Tasklet} until it is finished. */
public final class TaskletStep implements Step {

    private final StepSettings settings;
    private final Tasklet tasklet;

    TaskletStep(StepSettings settings, Tasklet tasklet) {
        this.settings = Checks.notNull(settings, "step.settings");
        this.tasklet = Checks.notNull(tasklet, "tasklet");
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
        return new TaskletStep(settings.withNodeId(nodeId), tasklet);
    }

    public TaskletStep withStartLimit(int startLimit) {
        return new TaskletStep(settings.withStartLimit(startLimit), tasklet);
    }

    public TaskletStep withAllowStartIfComplete(boolean allowStartIfComplete) {
        return new TaskletStep(settings.withAllowStartIfComplete(allowStartIfComplete), tasklet);
    }

    @Override
    public String toString() {
        return "TaskletStep[" + settings.nodeId() + "]";
    }
}
