package io.durablebatch.runtime.jakarta.plan;

import static io.durablebatch.runtime.jakarta.plan.JslPlans.isId;
import static io.durablebatch.runtime.jakarta.plan.JslPlans.literal;
import static io.durablebatch.runtime.jakarta.plan.JslPlans.unsupported;

import java.util.List;
import java.util.Optional;

import io.durablebatch.job.Step;
import io.durablebatch.job.Steps;
import io.durablebatch.job.TaskletStep;
import io.durablebatch.runtime.jakarta.execution.BatchletTasklet;
import io.durablebatch.runtime.jakarta.execution.JslStepListener;
import io.durablebatch.runtime.jakarta.jsl.JslBatchlet;
import io.durablebatch.runtime.jakarta.jsl.JslChunk;
import io.durablebatch.runtime.jakarta.jsl.JslJob;
import io.durablebatch.runtime.jakarta.jsl.JslProblem;
import io.durablebatch.runtime.jakarta.jsl.JslStep;
import io.durablebatch.runtime.jakarta.jsl.PropertyScope;

/**
 * A JSL {@code <step>} as a kernel {@link Step}: its work (batchlet, chunk, partition) and the
 * settings every step kind shares (start limit, allow-start-if-complete).
 */
final class StepPlans {

    private StepPlans() {
    }

    /** The kernel step of {@code step}, or empty with the reasons added to {@code problems}. */
    static Optional<Step> node(JslJob job, JslStep step, PropertyScope properties, List<JslProblem> problems) {
        int before = problems.size();
        if (!isId(step.id())) {
            problems.add(new JslProblem(step.location(), "the step id may contain only letters, digits and _-.:/@ here"));
        }
        Optional<Integer> startLimit = startLimit(step, properties, problems);
        Optional<Boolean> allowStartIfComplete = step.allowStartIfComplete()
                .flatMap(v -> literal(step.location(), "allow-start-if-complete", v, properties, problems))
                .map(v -> Boolean.parseBoolean(v.trim()));
        Optional<Step> work = work(job, step, properties, problems);
        if (problems.size() > before || work.isEmpty()) {
            return Optional.empty();
        }
        Step node = work.get();
        if (startLimit.orElse(0) > 0) {
            node = node.withStartLimit(startLimit.get());
        }
        return Optional.of(node.withAllowStartIfComplete(allowStartIfComplete.orElse(false)));
    }

    /** The step's work as a kernel step with the kernel's default settings. */
    private static Optional<Step> work(JslJob job, JslStep step, PropertyScope properties, List<JslProblem> problems) {
        if (step.partition().isPresent()) {
            problems.add(unsupported(step.location(), "<partition>"));
            return Optional.empty();
        }
        if (step.work().orElse(null) instanceof JslChunk chunk) {
            return JakartaChunkStep.of(job, step, chunk, properties, problems);
        }
        if (step.work().orElse(null) instanceof JslBatchlet) {
            TaskletStep tasklet = Steps.tasklet(step.id(), new BatchletTasklet(job, step));
            // a batchlet step's listeners are its StepListeners: begun before the batchlet, ended after it
            return Optional.of(step.listeners().isEmpty() ? tasklet : tasklet.listener(new JslStepListener(job, step)));
        }
        return Optional.empty();
    }

    private static Optional<Integer> startLimit(JslStep step, PropertyScope properties, List<JslProblem> problems) {
        Optional<String> written = step.startLimit()
                .flatMap(v -> literal(step.location(), "start-limit", v, properties, problems));
        if (written.isEmpty()) {
            return Optional.empty();
        }
        int limit;
        try {
            limit = Integer.parseInt(written.get().trim());
        } catch (NumberFormatException e) {
            problems.add(new JslProblem(step.location(), "start-limit=\"" + written.get() + "\" is no number"));
            return Optional.empty();
        }
        if (limit < 0) {
            problems.add(new JslProblem(step.location(), "start-limit must be 0 (no limit) or more"));
            return Optional.empty();
        }
        return Optional.of(limit);
    }
}
