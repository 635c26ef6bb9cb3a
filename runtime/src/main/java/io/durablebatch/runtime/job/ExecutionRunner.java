package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.jboss.logging.Logger;

import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobParameters;
import io.durablebatch.job.Node;
import io.durablebatch.job.Step;
import io.durablebatch.job.Transition;
import io.durablebatch.repository.ExecutionFailure;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.ExitStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs one job execution on the calling thread: STARTING to STARTED, then the flow node by node,
 * then the end status. A node's exit code picks the transition (the most specific matching
 * pattern); a node without transitions ends the job with its own outcome. A STOP taken on an
 * outcome reused from an earlier execution is not taken again: that stop already happened, and the
 * restart continues at its target.
 */
final class ExecutionRunner {

    private static final Logger LOG = Logger.getLogger(ExecutionRunner.class);

    private final JobRepository repository;
    private final StepRunners steps;
    private final JobDefinition definition;
    private final JobParameters parameters;
    private final StopSignal control;
    private JobExecution execution;

    ExecutionRunner(JobRepository repository, StepRunners steps, JobDefinition definition, JobParameters parameters,
            StopSignal control, JobExecution execution) {
        this.repository = repository;
        this.steps = steps;
        this.definition = definition;
        this.parameters = parameters;
        this.control = control;
        this.execution = execution;
    }

    JobExecution run() {
        if (control.stopRequested()) {
            return transition(LifecycleTransition.to(ExecutionStatus.STOPPED, Instant.now()));
        }
        transition(LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        LOG.infof("Job '%s' execution %s (attempt %d) started", definition.name(), execution.id(), execution.attempt());
        JobEnd end;
        try {
            end = walk();
        } catch (RuntimeException e) {
            LOG.errorf(e, "Job '%s' execution %s failed", definition.name(), execution.id());
            end = JobEnd.failed(ExitStatus.defaultFor(ExecutionStatus.FAILED), ExecutionFailure.of(e));
        }
        JobExecution ended = finish(end);
        LOG.infof("Job '%s' execution %s ended %s (exit %s)", definition.name(), ended.id(), ended.status(),
                ended.exitStatus().code());
        return ended;
    }

    private JobEnd walk() {
        Node node = definition.startNode();
        while (true) {
            if (control.stopRequested()) {
                return JobEnd.stopped();
            }
            StepOutcome outcome = runNode(node);
            if (outcome.status() == ExecutionStatus.STOPPED) {
                return JobEnd.stopped();
            }
            String exitCode = outcome.exitStatus().code();
            Optional<Transition> route = definition.route(node.id(), exitCode);
            if (route.isEmpty()) {
                return endWithOwnOutcome(node, outcome);
            }
            Transition transition = route.get();
            switch (transition.kind()) {
                case NEXT:
                    node = definition.node(transition.to().orElseThrow()).orElseThrow();
                    break;
                case END:
                    return JobEnd.completed(ExitStatus.defaultFor(ExecutionStatus.COMPLETED));
                case FAIL:
                    return JobEnd.failed(ExitStatus.defaultFor(ExecutionStatus.FAILED), outcome.failure()
                            .orElse(new ExecutionFailure("FlowFailure", "node '" + node.id() + "' exited " + exitCode
                                    + ", which the flow fails on (pattern " + transition.on() + ")")));
                case STOP:
                    if (!outcome.reused()) {
                        return JobEnd.stopped();
                    }
                    node = definition.node(transition.to().orElseThrow()).orElseThrow();
                    break;
                default:
                    throw new IllegalStateException("unknown transition kind " + transition.kind());
            }
        }
    }

    private StepOutcome runNode(Node node) {
        if (node instanceof Step step) {
            return steps.run(step, definition.name(), parameters, execution, control);
        }
        throw new IllegalStateException("no runner for node " + node);
    }

    private JobEnd endWithOwnOutcome(Node node, StepOutcome outcome) {
        List<Transition> transitions = definition.transitionsFrom(node.id());
        if (!transitions.isEmpty()) {
            return JobEnd.failed(ExitStatus.defaultFor(ExecutionStatus.FAILED), outcome.failure().orElse(
                    new ExecutionFailure("FlowFailure", "no transition of node '" + node.id() + "' matches exit code "
                            + outcome.exitStatus().code())));
        }
        if (outcome.status() == ExecutionStatus.COMPLETED) {
            return JobEnd.completed(outcome.exitStatus());
        }
        return JobEnd.failed(outcome.exitStatus(), outcome.failure()
                .orElse(new ExecutionFailure("StepFailure", "node '" + node.id() + "' ended " + outcome.status())));
    }

    private JobExecution finish(JobEnd end) {
        LifecycleTransition transition = LifecycleTransition.to(end.status(), Instant.now()).withExitStatus(end.exitStatus());
        if (end.failure().isPresent()) {
            transition = transition.withFailure(end.failure().get());
        }
        if (end.status() == ExecutionStatus.STOPPED && execution.status() == ExecutionStatus.STARTED) {
            LifecycleTransition stopped = transition;
            return QuarkusTransaction.requiringNew().call(() -> {
                JobExecution stopping = repository.transitionJobExecution(execution.id(), execution.version(),
                        LifecycleTransition.to(ExecutionStatus.STOPPING, Instant.now()));
                execution = repository.transitionJobExecution(stopping.id(), stopping.version(), stopped);
                return execution;
            });
        }
        return transition(transition);
    }

    private JobExecution transition(LifecycleTransition transition) {
        execution = QuarkusTransaction.requiringNew()
                .call(() -> repository.transitionJobExecution(execution.id(), execution.version(), transition));
        return execution;
    }
}
