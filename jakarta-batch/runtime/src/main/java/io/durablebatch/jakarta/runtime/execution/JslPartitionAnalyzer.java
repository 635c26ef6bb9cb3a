package io.durablebatch.jakarta.runtime.execution;

import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.job.PartitionAnalyzer;
import io.quarkus.arc.Arc;

/**
 * The kernel's analyzer of a partitioned JSL step with a collector, analyzer or reducer: hands
 * the collected data and the partitions' ends to the JSL analyzer, calls the reducer once they have
 * all ended, and sets the step's exit status. It holds only the JSL; {@link PartitionAnalyses} does
 * the work per attempt.
 */
public final class JslPartitionAnalyzer implements PartitionAnalyzer {

    private final JslJob job;
    private final JslStep step;

    public JslPartitionAnalyzer(JslJob job, JslStep step) {
        this.job = job;
        this.step = step;
    }

    private static PartitionAnalyses analyses() {
        return Arc.container().instance(PartitionAnalyses.class).get();
    }

    @Override
    public void collected(StepContext parent, PartitionContext partition, Object data) throws Exception {
        analyses().collected(job, step, parent, data);
    }

    @Override
    public void ended(StepContext parent, PartitionContext partition, ExecutionStatus status, ExitStatus exitStatus)
            throws Exception {
        analyses().ended(job, step, parent, status, exitStatus);
    }

    @Override
    public void allEnded(StepContext parent, ExecutionStatus status) throws Exception {
        analyses().allEnded(job, step, parent, status);
    }

    @Override
    public String toString() {
        return "JslPartitionAnalyzer[" + job.name() + "/" + step.id() + "]";
    }
}
