package io.durablebatch.runtime.job;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.context.DecisionContext;
import io.durablebatch.context.JobContext;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Decision;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.Node;
import io.durablebatch.job.Split;
import io.durablebatch.job.Transition;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.flow.FlowDecision;
import io.durablebatch.repository.flow.FlowDecisionRequest;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.InputDigest;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.sql.TransientFailures;

/**
 * Chooses and records the route of a flow after each node, in the repository's flow decisions:
 * appended (with the plan fingerprint and a digest of the durable input) before the target starts.
 * <p>
 * After a step the route follows from its exit status and the plan, so it is recorded but needs no
 * replay. At a {@link Decision} the input is the node the flow came from and its exit status; a
 * decision an earlier execution of the instance took on the same input under the same plan is
 * replayed instead of asking the decider again, so a restart takes the same route even if the
 * decider would now choose otherwise. A decision {@linkplain Decision#askedAgainOnRestart() asked again
 * on restart} replays only a stop it took (its restart target is where the restart continues) and
 * otherwise asks its decider on every execution.
 */
@Singleton
public class FlowRoutes {

    private static final Logger LOG = Logger.getLogger(FlowRoutes.class);

    /**
     * The node the flow came from and how it exited: the durable input of a decision. It carries the
     * step executions of the last step the flow ran (one per flow after a split), which a decider may
     * read but which are no part of the input (a restart that reuses the steps reads the same ones).
     */
    record Previous(String nodeId, ExitStatus exitStatus, List<StepExecution> lastSteps) {
    }

    private final KernelRepository repository;
    private final Bookkeeping bookkeeping;

    FlowRoutes(KernelRepository repository, DurableBatchConfig config) {
        this.repository = repository;
        this.bookkeeping = new Bookkeeping(config.lease().duration());
    }

    /**
     * The route after a step that ended with {@code outcome} (not STOPPED), recorded; {@code visited}:
     * the nodes this execution reached so far.
     */
    Route afterStep(JobDefinition definition, JobExecution execution, Node step, StepOutcome outcome,
            Set<String> visited) {
        Supplier<Route> record = () -> record(definition, execution, step, outcome, visited);
        return bookkeeping.record("the route after step '" + step.id() + "'", record,
                () -> recordedFrom(execution, step).map(earlier -> stepRoute(definition, step, outcome, visited))
                        .orElseGet(record));
    }

    /** The route after a step that ended with {@code outcome} (not STOPPED), recorded in the caller's transaction. */
    Route recordAfterStep(JobDefinition definition, JobExecution execution, Node step, StepOutcome outcome) {
        return record(definition, execution, step, outcome, Set.of());
    }

    private Route record(JobDefinition definition, JobExecution execution, Node step, StepOutcome outcome,
            Set<String> visited) {
        Route route = stepRoute(definition, step, outcome, visited);
        append(definition, execution, step, route,
                digest("step", step.id(), Optional.of(new Previous(step.id(), outcome.exitStatus(), List.of()))),
                outcome.exitStatus());
        return route;
    }

    /**
     * The route after a split all of whose flows completed: its transitions matched against
     * {@code COMPLETED}, recorded as a step's route is.
     */
    Route afterSplit(JobDefinition definition, JobExecution execution, Split split, Set<String> visited) {
        ExitStatus completed = SplitRunner.COMPLETED;
        Supplier<Route> record = () -> {
            Route route = route(definition, split, ExecutionStatus.COMPLETED, completed, Optional.empty(), false,
                    visited);
            append(definition, execution, split, route,
                    digest("split", split.id(), Optional.of(new Previous(split.id(), completed, List.of()))), completed);
            return route;
        };
        return bookkeeping.record("the route after split '" + split.id() + "'", record,
                () -> recordedFrom(execution, split).map(earlier -> route(definition, split, ExecutionStatus.COMPLETED,
                        completed, Optional.empty(), false, visited)).orElseGet(record));
    }

    /** A decision's route and the exit code it was chosen on. */
    record Decided(Route route, ExitStatus outcome) {
    }

    /** The route a decision takes: replayed from an earlier execution on the same input, or decided and recorded. */
    Decided atDecision(JobDefinition definition, JobExecution execution, Decision decision, Optional<Previous> previous,
            JobContext job) {
        InputDigest input = digest("decision", decision.id(), previous);
        Supplier<Decided> decide = () -> decide(definition, execution, decision, previous, job, input);
        // a decider runs once per execution: after a commit whose acknowledgement was lost, its
        // recorded route stands
        return bookkeeping.record("the route of decision '" + decision.id() + "'", decide,
                () -> recordedFrom(execution, decision).map(earlier -> new Decided(
                        decisionRoute(definition, decision, earlier.outcome()), earlier.outcome())).orElseGet(decide));
    }

    /** The decision this execution already recorded from {@code node}, if an earlier try committed it. */
    private Optional<FlowDecision> recordedFrom(JobExecution execution, Node node) {
        return repository.flowDecisions(execution.id()).stream()
                .filter(decision -> decision.fromNode().value().equals(node.id())).findFirst();
    }

    private Decided decide(JobDefinition definition, JobExecution execution, Decision decision,
            Optional<Previous> previous, JobContext job, InputDigest input) {
        Optional<FlowDecision> replayed = replayable(definition, execution, decision, input);
        if (replayed.isPresent()) {
            FlowDecision earlier = replayed.get();
            LOG.infof("Decision '%s' of job '%s' replays the route to '%s' (exit %s) taken by execution %s",
                    decision.id(), definition.name(), earlier.toNode().orElseThrow(), earlier.outcome().code(),
                    earlier.jobExecutionId());
            Route route = Route.to(FlowTransitionKind.DECISION, earlier.toNode().orElseThrow().value());
            append(definition, execution, decision, route, input, earlier.outcome());
            return new Decided(route, earlier.outcome());
        }
        ExitStatus outcome;
        Route route;
        try {
            outcome = ExitStatus.of(decision.decider().decide(new Context(definition.name(), job.parameters(), execution,
                    decision.id(), previous, job)));
            route = decisionRoute(definition, decision, outcome);
        } catch (Exception e) {
            if (TransientFailures.isTransient(e)) {
                // the database is out of reach, not the decider wrong: the route is decided again
                throw e instanceof RuntimeException runtime ? runtime : new TransientDecisionFailure(decision, e);
            }
            outcome = ExitStatus.defaultFor(ExecutionStatus.FAILED);
            route = Route.end(FlowTransitionKind.FAIL, JobEnd.failed(outcome, ExecutionFailure.of(e)));
        }
        append(definition, execution, decision, route, input, outcome);
        return new Decided(route, outcome);
    }

    private Optional<FlowDecision> replayable(JobDefinition definition, JobExecution execution, Decision decision,
            InputDigest input) {
        JobInstanceId instance = execution.jobInstanceId();
        NodeId node = NodeId.of(decision.id());
        // A STOP already happened in the execution that took it: the restart continues at its target,
        // also at a decision asked again on restart (else a restart could stop there again and again).
        FlowTransitionKind[] replayed = decision.isAskedAgainOnRestart() ? new FlowTransitionKind[] { FlowTransitionKind.STOP }
                : new FlowTransitionKind[] { FlowTransitionKind.DECISION, FlowTransitionKind.STOP };
        for (FlowTransitionKind kind : replayed) {
            Optional<FlowDecision> found = repository.findReusableFlowDecision(instance, node,
                    definition.identity().fingerprint(), input, kind)
                    .filter(earlier -> !earlier.jobExecutionId().equals(execution.id()))
                    // a stop without a restart position has no node to continue at
                    .filter(earlier -> earlier.toNode().isPresent());
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Route stepRoute(JobDefinition definition, Node step, StepOutcome outcome, Set<String> visited) {
        return route(definition, step, outcome.status(), outcome.exitStatus(), outcome.failure(), outcome.reused(),
                visited);
    }

    /** The route after a node (a step or a split) that ended {@code status} with {@code exitStatus}. */
    private static Route route(JobDefinition definition, Node step, ExecutionStatus status, ExitStatus exitStatus,
            Optional<ExecutionFailure> failure, boolean reused, Set<String> visited) {
        String exitCode = exitStatus.code();
        Optional<Transition> matching = definition.route(step.id(), exitCode);
        if (matching.isEmpty()) {
            if (!definition.transitionsFrom(step.id()).isEmpty()) {
                return Route.end(FlowTransitionKind.FAIL, JobEnd.failed(ExitStatus.defaultFor(ExecutionStatus.FAILED),
                        failure.orElse(new ExecutionFailure("FlowFailure", "no transition of node '"
                                + step.id() + "' matches exit code " + exitCode))));
            }
            // a node without transitions ends the job with its own outcome
            if (status == ExecutionStatus.COMPLETED) {
                return Route.end(FlowTransitionKind.END, JobEnd.completed(exitStatus));
            }
            return Route.end(FlowTransitionKind.FAIL, JobEnd.failed(exitStatus, failure
                    .orElse(new ExecutionFailure("StepFailure", "node '" + step.id() + "' ended " + status))));
        }
        Transition transition = matching.get();
        switch (transition.kind()) {
            case NEXT:
                return Route.to(FlowTransitionKind.NEXT, transition.to().orElseThrow());
            case STOP:
                // a stop taken on an outcome of an earlier execution already happened: continue at its
                // restart position, unless this execution came from there (it began at the stopping
                // node or before it, and reached the stop again on a reused exit code): it stops again
                Optional<String> onward = transition.to().filter(target -> !visited.contains(target));
                return reused && onward.isPresent() ? Route.to(FlowTransitionKind.NEXT, onward.get())
                        : Route.stop(transition.to(), transition.exitStatus());
            default:
                return terminal(step, transition, exitStatus, failure);
        }
    }

    private static Route decisionRoute(JobDefinition definition, Decision decision, ExitStatus outcome) {
        Optional<Transition> matching = definition.route(decision.id(), outcome.code());
        if (matching.isEmpty()) {
            return Route.end(FlowTransitionKind.FAIL, JobEnd.failed(ExitStatus.defaultFor(ExecutionStatus.FAILED),
                    new ExecutionFailure("FlowFailure", "no transition of decision '" + decision.id()
                            + "' matches exit code " + outcome.code())));
        }
        Transition transition = matching.get();
        switch (transition.kind()) {
            case NEXT:
                return Route.to(FlowTransitionKind.DECISION, transition.to().orElseThrow());
            case STOP:
                return Route.stop(transition.to(), transition.exitStatus());
            default:
                return terminal(decision, transition, outcome, Optional.empty());
        }
    }

    private static Route terminal(Node node, Transition transition, ExitStatus outcome, Optional<ExecutionFailure> failure) {
        if (transition.kind() == io.durablebatch.job.TransitionKind.END) {
            return Route.end(FlowTransitionKind.END, JobEnd.completed(ExitStatus.defaultFor(ExecutionStatus.COMPLETED))
                    .declaring(transition.exitStatus()));
        }
        return Route.end(FlowTransitionKind.FAIL, JobEnd.failed(ExitStatus.defaultFor(ExecutionStatus.FAILED),
                failure.orElse(new ExecutionFailure("FlowFailure", "node '" + node.id() + "' exited " + outcome.code()
                        + ", which the flow fails on (pattern " + transition.on() + ")")))
                .declaring(transition.exitStatus()));
    }

    private void append(JobDefinition definition, JobExecution execution, Node from, Route route, InputDigest input,
            ExitStatus outcome) {
        repository.appendFlowDecision(new FlowDecisionRequest(execution.id(), NodeId.of(from.id()),
                route.target().map(NodeId::of), route.kind(), definition.identity().fingerprint(), input, outcome,
                Instant.now()));
    }

    /** SHA-256 of the canonical input: kind, node, and the previous node with its exit status. */
    static InputDigest digest(String kind, String nodeId, Optional<Previous> previous) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeUTF(kind);
            out.writeUTF(nodeId);
            out.writeBoolean(previous.isPresent());
            if (previous.isPresent()) {
                out.writeUTF(previous.get().nodeId());
                out.writeUTF(previous.get().exitStatus().code());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return InputDigest.sha256(bytes.toByteArray());
    }

    /** The context a decider sees. */
    private record Context(JobName jobName, JobParameters parameters, JobExecution execution, String nodeId,
            Optional<Previous> previous, JobContext job) implements DecisionContext {

        @Override
        public JobInstanceId jobInstanceId() {
            return execution.jobInstanceId();
        }

        @Override
        public JobExecutionId jobExecutionId() {
            return execution.id();
        }

        @Override
        public Optional<String> previousNodeId() {
            return previous.map(Previous::nodeId);
        }

        @Override
        public Optional<ExitStatus> previousExitStatus() {
            return previous.map(Previous::exitStatus);
        }

        @Override
        public Optional<StepExecution> lastStepExecution() {
            List<StepExecution> last = lastStepExecutions();
            return last.isEmpty() ? Optional.empty() : Optional.of(last.get(last.size() - 1));
        }

        @Override
        public List<StepExecution> lastStepExecutions() {
            return previous.map(Previous::lastSteps).orElse(List.of());
        }
    }

    /** A decider's checked failure that only says the database was out of reach, for the bookkeeping to retry. */
    static final class TransientDecisionFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TransientDecisionFailure(Decision decision, Exception cause) {
            super("decider of '" + decision.id() + "' failed transiently: " + cause.getMessage(), cause);
        }
    }
}
