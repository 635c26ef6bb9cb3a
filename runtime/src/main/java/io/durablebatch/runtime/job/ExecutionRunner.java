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
import io.durablebatch.operator.ExecutionControl;
import io.durablebatch.operator.OwnerToken;
import io.durablebatch.repository.ExecutionFailure;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.ExecutionVersion;
import io.durablebatch.repository.ExitStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
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
    private final OwnerToken owner;
    private JobExecution execution;

    ExecutionRunner(JobRepository repository, StepRunners steps, FlowRoutes routes, JobDefinition definition,
            JobParameters parameters, StopSignal control, OwnerToken owner, JobExecution execution) {
        this.owner = owner;
        this.repository = repository;
        this.steps = steps;
        this.routes = routes;
        this.definition = definition;
        this.parameters = parameters;
        this.control = control;
        this.execution = execution;
    }

    JobExecution run() {
        if (!begin()) {
            LOG.infof("Job '%s' execution %s was asked to stop before it started", definition.name(), execution.id());
            return execution;
        }
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

    /**
     * STARTING to STARTED, or straight to STOPPED if a stop was requested meanwhile; observes control
     * first, in the same transaction. Returns whether the execution started.
     */
    private boolean begin() {
        return withCurrentVersion(() -> {
            ExecutionControl observed = repository.observeExecutionControl(execution.id(), owner, Instant.now());
            boolean stop = observed.stopRequested() || control.stopRequested();
            execution = repository.transitionJobExecution(execution.id(), observed.version(),
                    LifecycleTransition.to(stop ? ExecutionStatus.STOPPED : ExecutionStatus.STARTED, Instant.now()));
            return !stop;
        });
    }

    /**
     * Records the end, from the status and version observed in the same transaction: a stop request
     * or an observation of the control poller may have moved the execution (to STOPPING) meanwhile.
     */
    private JobExecution finish(JobEnd end) {
        LifecycleTransition transition = LifecycleTransition.to(end.status(), Instant.now()).withExitStatus(end.exitStatus());
        LifecycleTransition ending = end.failure().map(transition::withFailure).orElse(transition);
        return withCurrentVersion(() -> {
            ExecutionControl observed = repository.observeExecutionControl(execution.id(), owner, Instant.now());
            ExecutionVersion version = observed.version();
            if (end.status() == ExecutionStatus.STOPPED && observed.status() == ExecutionStatus.STARTED) {
                version = repository.transitionJobExecution(execution.id(), version,
                        LifecycleTransition.to(ExecutionStatus.STOPPING, Instant.now())).version();
            }
            execution = repository.transitionJobExecution(execution.id(), version, ending);
            return execution;
        });
    }

    /** Runs a job-level transition in its own transaction, again if another observer moved the version first. */
    private <T> T withCurrentVersion(java.util.function.Supplier<T> transition) {
        for (int attempt = 1;; attempt++) {
            try {
                return QuarkusTransaction.requiringNew().call(transition::get);
            } catch (RepositoryException e) {
                if (e.error() != RepositoryError.VERSION_CONFLICT || attempt == 3) {
                    throw e;
                }
            }
        }
    }
}
