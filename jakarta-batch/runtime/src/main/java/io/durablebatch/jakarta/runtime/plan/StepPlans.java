package io.durablebatch.jakarta.runtime.plan;

import static io.durablebatch.jakarta.runtime.plan.JslPlans.isId;
import static io.durablebatch.jakarta.runtime.plan.JslPlans.planValue;

import java.util.List;
import java.util.Optional;

import io.durablebatch.execution.StepName;
import io.durablebatch.jakarta.runtime.execution.BatchletTasklet;
import io.durablebatch.jakarta.runtime.execution.JslPartitionAnalyzer;
import io.durablebatch.jakarta.runtime.execution.JslPartitionedStepListener;
import io.durablebatch.jakarta.runtime.execution.JslPartitioner;
import io.durablebatch.jakarta.runtime.execution.JslStepListener;
import io.durablebatch.jakarta.runtime.jsl.JslBatchlet;
import io.durablebatch.jakarta.runtime.jsl.JslChunk;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslPartition;
import io.durablebatch.jakarta.runtime.jsl.JslProblem;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;
import io.durablebatch.jakarta.runtime.partition.PartitionWorkerSteps;
import io.durablebatch.job.ParameterizedValue;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.job.Step;
import io.durablebatch.job.Steps;
import io.durablebatch.job.TaskletStep;

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
        Optional<ParameterizedValue> startLimit = startLimit(step, properties, problems);
        // JSL reads anything but true as false, in every execution alike
        Optional<ParameterizedValue> allowStartIfComplete = step.allowStartIfComplete()
                .flatMap(v -> planValue(step.location(), "allow-start-if-complete", v, properties, problems))
                .map(v -> v.map(written -> Boolean.toString(Boolean.parseBoolean(written.trim()))));
        Optional<Step> work = work(job, step, properties, problems);
        if (problems.size() > before || work.isEmpty()) {
            return Optional.empty();
        }
        Step node = startLimit.filter(limit -> !limit.writtenForm().equals("0")).map(work.get()::withStartLimit)
                .orElse(work.get());
        return Optional.of(allowStartIfComplete.map(node::withAllowStartIfComplete)
                .orElseGet(() -> node.withAllowStartIfComplete(false)));
    }

    /** The step's work as a kernel step with the kernel's default settings. */
    private static Optional<Step> work(JslJob job, JslStep step, PropertyScope properties, List<JslProblem> problems) {
        if (step.work().orElse(null) instanceof JslChunk chunk) {
            if (step.partition().isPresent()) {
                if (!partitionable(step, problems)) {
                    return Optional.empty();
                }
                // each partition is an attempt of the worker chunk step, with a checkpoint of its own
                return JakartaChunkStep.of(job, step, chunk, PartitionWorkerSteps.workerOf(step.id()), properties,
                        problems).map(worker -> partitioned(job, step, worker));
            }
            return JakartaChunkStep.of(job, step, chunk, step.id(), properties, problems);
        }
        if (step.work().orElse(null) instanceof JslBatchlet) {
            if (step.partition().isPresent()) {
                return partitionable(step, problems) ? Optional.of(partitioned(job, step,
                        Steps.tasklet(PartitionWorkerSteps.workerOf(step.id()), new BatchletTasklet(job, step))))
                        : Optional.empty();
            }
            TaskletStep tasklet = Steps.tasklet(step.id(), new BatchletTasklet(job, step));
            // a batchlet step's listeners are its StepListeners: begun before the batchlet, ended after it
            return Optional.of(step.listeners().isEmpty() ? tasklet : tasklet.listener(new JslStepListener(job, step)));
        }
        return Optional.empty();
    }

    /**
     * A step with {@code <partition>} as a kernel partitioned step: {@link JslPartitioner} makes the
     * plan per execution, each partition runs {@code worker}, the step's work (of any kind) as a step
     * named {@link PartitionWorkerSteps#workerOf}.
     */
    private static Step partitioned(JslJob job, JslStep step, Step worker) {
        JslPartition partition = step.partition().orElseThrow();
        PartitionedStep partitioned = Steps.partitioned(step.id(), new JslPartitioner(job, step), worker);
        if (!step.listeners().isEmpty()) {
            // its StepListeners run around the step on its thread; its chunk-level ones in each partition
            partitioned = partitioned.listener(new JslPartitionedStepListener(job, step));
        }
        // the kernel's analyzer ships data in memory: only a step that needs one runs its partitions locally only
        boolean analyzed = partition.collector().isPresent() || partition.analyzer().isPresent()
                || partition.reducer().isPresent();
        return analyzed ? partitioned.analyzer(new JslPartitionAnalyzer(job, step)) : partitioned;
    }

    /** Whether the step's id leaves room for its workers' name, which must not be a step id of its own. */
    private static boolean partitionable(JslStep step, List<JslProblem> problems) {
        String worker = PartitionWorkerSteps.workerOf(step.id());
        if (PartitionWorkerSteps.isWorker(step.id()) || worker.length() > StepName.MAX_LENGTH) {
            problems.add(new JslProblem(step.location(), "the id of a partitioned step must not end with ':partition' and "
                    + "may have at most " + (StepName.MAX_LENGTH - worker.length() + step.id().length()) + " characters"));
            return false;
        }
        return true;
    }

    /**
     * The start limit: checked here where the job XML fixes it; else resolved per execution, where
     * a value left empty is JSL's default, no limit.
     */
    private static Optional<ParameterizedValue> startLimit(JslStep step, PropertyScope properties,
            List<JslProblem> problems) {
        Optional<ParameterizedValue> value = step.startLimit()
                .flatMap(v -> planValue(step.location(), "start-limit", v, properties, problems));
        if (value.isEmpty() || !value.get().isLiteral()) {
            return value.map(perExecution -> perExecution.map(limit -> limit.isBlank() ? "0" : limit.trim()));
        }
        Optional<String> written = value.map(ParameterizedValue::writtenForm);
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
        return Optional.of(ParameterizedValue.literal(Integer.toString(limit)));
    }
}
