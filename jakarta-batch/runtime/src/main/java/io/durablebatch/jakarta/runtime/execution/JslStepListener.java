package io.durablebatch.jakarta.runtime.execution;

import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.listener.StepEvent;
import io.durablebatch.listener.StepListener;
import io.quarkus.arc.Arc;

/**
 * A JSL step's attempts as the kernel's step listener: its {@code beforeStep} begins the Jakarta
 * step attempt ({@link StepRuns#begin}: contexts, step-level {@code <listeners>} and their
 * {@code beforeStep}), its {@code afterStep} ends it. Holds only the JSL; a batchlet step gets one
 * when it has {@code <listeners>}, a chunk step always (as {@link JslChunkListener}).
 */
public class JslStepListener implements StepListener {

    private final JslJob job;
    private final JslStep step;

    public JslStepListener(JslJob job, JslStep step) {
        this.job = job;
        this.step = step;
    }

    @Override
    public void beforeStep(StepEvent event) {
        runs().begin(job, step, event);
    }

    /**
     * Runs once the step's end is recorded (the kernel's afterStep): an exception a Jakarta
     * {@code afterStep} throws is logged by the kernel and leaves the recorded end as it is.
     */
    @Override
    public void afterStep(StepEvent event) {
        runs().end(event);
    }

    static StepRuns runs() {
        return Arc.container().instance(StepRuns.class).get();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + job.name() + "/" + step.id() + "]";
    }
}
