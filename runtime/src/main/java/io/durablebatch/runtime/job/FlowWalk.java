package io.durablebatch.runtime.job;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Decision;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.Node;
import io.durablebatch.job.Split;
import io.durablebatch.job.Step;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;

/**
 * Walks one flow of an execution node by node, on the calling thread: the job's own flow, or one
 * flow of a split. After each node {@link FlowRoutes} picks and records the route; a node runs at
 * most once per execution ({@code visited} is shared by all the execution's flows, whose node ids
 * are unique in the job). The walk ends where the route does not continue: for the job's own flow
 * that is the job's end, for a split's flow the flow's.
 */
final class FlowWalk {

    /** What a walk depends on: the same for every flow of an execution. */
    record Run(KernelRepository repository, StepRunners steps, FlowRoutes routes, SplitRunner splits,
            JobDefinition definition, JobExecution execution, ExecutionHandle control, OwnerToken owner,
            boolean newInstance, Set<String> visited) {
    }

    private final Run run;
    private final JobContextImpl job;
    private final boolean endMayJoin;
    private Optional<StepRunners.StepStart> begun;
    private Optional<JobExecution> endedWithStep = Optional.empty();
    private Optional<FlowRoutes.Previous> previous = Optional.empty();

    /**
     * @param begun the first step, when the transaction that led to the walk started it already
     * @param endMayJoin whether the job's end may commit with its last step's completion (never in a split's flow)
     */
    FlowWalk(Run run, JobContextImpl job, Optional<StepRunners.StepStart> begun, boolean endMayJoin) {
        this.run = run;
        this.job = job;
        this.begun = begun;
        this.endMayJoin = endMayJoin;
    }

    /** The job's end as recorded with the completion of its last step, if it was. */
    Optional<JobExecution> endedWithStep() {
        return endedWithStep;
    }

    /** The step executions of the last steps the flow ran: one, or one per flow of a split it ended at. */
    List<StepExecution> lastSteps() {
        return previous.map(FlowRoutes.Previous::lastSteps).orElse(List.of());
    }

    JobEnd walk(Node start) {
        JobDefinition definition = run.definition();
        JobExecution execution = run.execution();
        ExecutionHandle control = run.control();
        Node node = start;
        while (true) {
            // a step started already sees a stop request itself, and ends STOPPED, not left active
            if (begun.isEmpty() && control.stopRequested()) {
                return JobEnd.stopped();
            }
            if (!run.visited().add(node.id())) {
                // a node runs at most once per execution
                return JobEnd.failed("node '" + node.id() + "' was reached twice in execution " + execution.id());
            }
            Route route;
            if (node instanceof Step step) {
                StepBoundary boundary = new StepBoundary(run.repository(), run.routes(), run.steps(), definition,
                        execution, step, run.visited(), run.newInstance(), run.owner(), control, job, endMayJoin);
                StepOutcome outcome = run.steps().run(step, job, execution, control, begun, boundary);
                begun = Optional.empty();
                if (outcome.status() == ExecutionStatus.STOPPED) {
                    return JobEnd.stopped();
                }
                Optional<StepBoundary.Taken> taken = boundary.takenWith(outcome);
                route = taken.isPresent() ? taken.get().route()
                        : run.routes().afterStep(definition, execution, step, outcome, run.visited());
                begun = taken.flatMap(StepBoundary.Taken::next);
                endedWithStep = taken.flatMap(StepBoundary.Taken::ended);
                previous = Optional.of(new FlowRoutes.Previous(step.id(), outcome.exitStatus(),
                        List.of(outcome.execution())));
            } else if (node instanceof Decision decision) {
                FlowRoutes.Decided decided = run.routes().atDecision(definition, execution, decision, previous, job);
                route = decided.route();
                previous = Optional.of(new FlowRoutes.Previous(decision.id(), decided.outcome(),
                        previous.map(FlowRoutes.Previous::lastSteps).orElse(List.of())));
            } else if (node instanceof Split split) {
                SplitRunner.Joined joined = run.splits().run(split, run, job);
                if (joined.end().isPresent()) {
                    return joined.end().get();
                }
                route = run.routes().afterSplit(definition, execution, split, run.visited());
                previous = Optional.of(new FlowRoutes.Previous(split.id(), SplitRunner.COMPLETED, joined.lastSteps()));
            } else {
                throw new IllegalStateException("no runner for node " + node);
            }
            if (!route.continues()) {
                return route.end().orElseThrow();
            }
            node = definition.node(route.target().orElseThrow()).orElseThrow();
        }
    }
}
