package io.durablebatch.jakarta.runtime.execution;

import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.listener.StepEvent;
import io.durablebatch.listener.StepListener;
import io.quarkus.arc.Arc;

/**
 * The {@code StepListener}s of a partitioned JSL step, as the kernel's listener of the partitioned
 * step: called once per attempt, on the step's own thread, with the step's {@code StepContext} (the
 * one its mapper, analyzer and reducer share); {@code beforeStep} comes before the reducer's
 * {@code beginPartitionedStep}, {@code afterStep} after the reducer's end. The step's chunk-level
 * listeners are its partitions', called on their threads ({@link StepRuns#begin}).
 */
public class JslPartitionedStepListener implements StepListener {

    private final JslJob job;
    private final JslStep step;

    public JslPartitionedStepListener(JslJob job, JslStep step) {
        this.job = job;
        this.step = step;
    }

    @Override
    public void beforeStep(StepEvent event) {
        try {
            analyses().run(job, step, event.context());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the partitioned step " + step.id() + " of job " + job.id()
                    + " cannot begin: " + e, e);
        }
    }

    /** Runs once the step's end is recorded, as a batchlet or chunk step's {@code afterStep} does. */
    @Override
    public void afterStep(StepEvent event) {
        analyses().afterStep(event.context());
    }

    private static PartitionAnalyses analyses() {
        return Arc.container().instance(PartitionAnalyses.class).get();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + job.name() + "/" + step.id() + "]";
    }
}
