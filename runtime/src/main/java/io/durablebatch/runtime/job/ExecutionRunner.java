package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import org.jboss.logging.Logger;

import io.durablebatch.job.Decision;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobParameters;
import io.durablebatch.job.Node;
import io.durablebatch.job.Step;
import io.durablebatch.repository.ExecutionFailure;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.ExitStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs one job execution on the calling thread: STARTING to STARTED, then the flow node by node,
 * then the end status. After each node {@link FlowRoutes} picks and records the route; a node runs
 * at most once per execution.
 */
final class ExecutionRunner {

    private static final Logger LOG = Logger.getLogger(ExecutionRunner.class);

    private final JobRepository repository;
    private final StepRunners steps;
    private final FlowRoutes routes;
    private final JobDefinition definition;
    private final JobParameters parameters;
    private final StopSignal control;
    private JobExecution execution;

    ExecutionRunner(JobRepository repository, StepRunners steps, FlowRoutes routes, JobDefinition definition,
            JobParameters parameters, StopSignal control, JobExecution execution) {
        this.repository = repository;
        this.steps = steps;
        this.routes = routes;
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
        Optional<FlowRoutes.Previous> previous = Optional.empty();
        Set<String> visited = new HashSet<>();
        while (true) {
            if (control.stopRequested()) {
                return JobEnd.stopped();
            }
            if (!visited.add(node.id())) {
                // only a stop-and-restart target before its stop can lead here: never run a node twice
                return JobEnd.failed("node '" + node.id() + "' was reached twice in execution " + execution.id());
            }
            Route route;
            if (node instanceof Step step) {
                StepOutcome outcome = steps.run(step, definition.name(), parameters, execution, control);
                if (outcome.status() == ExecutionStatus.STOPPED) {
                    return JobEnd.stopped();
                }
                route = routes.afterStep(definition, execution, step, outcome);
                previous = Optional.of(new FlowRoutes.Previous(step.id(), outcome.exitStatus()));
            } else if (node instanceof Decision decision) {
                FlowRoutes.Decided decided = routes.atDecision(definition, execution, decision, previous, parameters);
                route = decided.route();
                previous = Optional.of(new FlowRoutes.Previous(decision.id(), decided.outcome()));
            } else {
                throw new IllegalStateException("no runner for node " + node);
            }
            if (!route.continues()) {
                return route.end().orElseThrow();
            }
            node = definition.node(route.target().orElseThrow()).orElseThrow();
        }
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
