package io.durablebatch.jakarta.runtime.execution;

import io.durablebatch.context.DecisionContext;
import io.durablebatch.jakarta.runtime.jsl.JslDecision;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.job.Decider;
import io.quarkus.arc.Arc;

/**
 * A {@code <decision>} as the kernel's decider. It holds only the JSL; the artifact is resolved per
 * execution by {@link DeciderRuns}, since its ref and properties may depend on the parameters.
 */
public final class JslDecider implements Decider {

    private final JslJob job;
    private final JslDecision decision;

    public JslDecider(JslJob job, JslDecision decision) {
        this.job = job;
        this.decision = decision;
    }

    @Override
    public String decide(DecisionContext context) throws Exception {
        return Arc.container().instance(DeciderRuns.class).get().decide(job, decision, context);
    }

    @Override
    public String toString() {
        return "JslDecider[" + job.name() + "/" + decision.id() + "]";
    }
}
