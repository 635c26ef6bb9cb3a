package io.durablebatch.jakarta.runtime.execution;

import java.util.List;

import io.durablebatch.context.StepContext;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.job.Partitioner;
import io.durablebatch.job.Partitioning;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.quarkus.arc.Arc;

/**
 * The kernel's partitioner of a step with a JSL {@code <partition>}. It holds only the JSL: the
 * plan ({@code <plan>}'s attributes and properties, or the mapper's {@code PartitionPlan}) depends on
 * the execution and is made by {@link PartitionPlans}.
 */
public final class JslPartitioner implements Partitioner {

    private final JslJob job;
    private final JslStep step;

    public JslPartitioner(JslJob job, JslStep step) {
        this.job = job;
        this.step = step;
    }

    @Override
    public List<PartitionPlanEntry> partition(StepContext context) throws Exception {
        return partitioning(context, false).fresh().orElseThrow();
    }

    @Override
    public Partitioning partitioning(StepContext context, boolean resumable) throws Exception {
        return Arc.container().instance(PartitionPlans.class).get().partitioning(job, step, context, resumable);
    }

    @Override
    public String toString() {
        return "JslPartitioner[" + job.name() + "/" + step.id() + "]";
    }
}
