package io.durablebatch.jakarta.runtime.execution;

import io.durablebatch.context.StepContext;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.Tasklet;
import io.quarkus.arc.Arc;

/**
 * A {@code <step>} with a {@code <batchlet>} as the kernel's tasklet. It holds only the JSL; the
 * artifact is resolved per execution by {@link BatchletRuns}, since its ref and properties may
 * depend on the execution's parameters.
 */
public final class BatchletTasklet implements Tasklet {

    private final JslJob job;
    private final JslStep step;

    public BatchletTasklet(JslJob job, JslStep step) {
        this.job = job;
        this.step = step;
    }

    @Override
    public RepeatStatus execute(StepContext context) throws Exception {
        return Arc.container().instance(BatchletRuns.class).get().run(job, step, context);
    }

    @Override
    public String toString() {
        return "BatchletTasklet[" + job.name() + "/" + step.id() + "]";
    }
}
