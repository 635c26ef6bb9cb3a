package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobDefinitionException;
import io.durablebatch.job.Node;
import io.durablebatch.listener.JobEnding;
import io.durablebatch.listener.JobEvent;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.ExecutionControl;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.TransientFailures;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs one job execution on the calling thread: STARTING to STARTED (unless its launch started it),
 * then the flow node by node ({@link FlowWalk}; a split's flows on threads of their own), then the
 * end status. After each node {@link FlowRoutes} picks and records the route; a node runs at most
 * once per execution. A step's completion carries the route
 * after it, and the start of the next step or the job's end where they can join it
 * ({@link StepBoundary}): a job of one step commits twice, at its launch and at its end. The job
 * listeners are called once the start is recorded and once the end is (a {@code beforeJob} that
 * throws fails the execution before its first node); the job end listeners between the flow's end
 * and its record, which then has a transaction of its own. The end records the exit status the
 * job's context holds, if one was set, else the flow's.
 */
final class ExecutionRunner {

    private static final Logger LOG = Logger.getLogger(ExecutionRunner.class);
    private static final SplitRunner SPLITS = new SplitRunner();

    /** The failure type of an execution whose parameters do not resolve its plan's per-execution values. */
    static final String PLAN_NOT_RESOLVED = "io.durablebatch.PlanNotResolved";

    /** A definition as one execution runs it, or why its parameters cannot resolve it. */
    record Resolved(Optional<JobDefinition> plan, Optional<JobDefinitionException> failure) {
    }

    static Resolved resolved(JobDefinition definition, JobParameters parameters) {
        try {
            return new Resolved(Optional.of(definition.forExecution(parameters)), Optional.empty());
        } catch (JobDefinitionException e) {
            return new Resolved(Optional.empty(), Optional.of(e));
        }
    }

    private final KernelRepository repository;
    private final StepRunners steps;
    private final FlowRoutes routes;
    /** The definition as this execution runs it: its values resolved from the parameters, if they could be. */
    private final JobDefinition definition;
    private final Optional<JobDefinitionException> unresolved;
    private final JobParameters parameters;
    private final ExecutionHandle control;
    private final Bookkeeping bookkeeping;
    private final OwnerLossRestarts restarts;
    private final OwnerToken owner;
    private final boolean startedAtLaunch;
    private final boolean newInstance;
    /** The first step, if the launch started it already. */
    private final Optional<StepRunners.StepStart> begun;
    private JobExecution execution;
    private Optional<JobExecution> endedWithStep = Optional.empty();

    /**
     * A runner of {@code launch}: an execution its launch moved to STARTED here, with its first step
     * started (if it could be) in the same transaction, or one to start first.
     */
    ExecutionRunner(KernelRepository repository, StepRunners steps, FlowRoutes routes, KernelJobOperator.Launch launch,
            ExecutionHandle control, OwnerToken owner, OwnerLossRestarts restarts) {
        this.startedAtLaunch = launch.started();
        this.newInstance = launch.newInstance();
        this.begun = launch.firstStep();
        this.execution = launch.execution();
        this.parameters = launch.parameters();
        Resolved resolved = resolved(launch.definition(), parameters);
        this.definition = resolved.plan().orElse(launch.definition());
        this.unresolved = resolved.failure();
        this.restarts = restarts;
        this.bookkeeping = steps.bookkeeping();
        this.owner = owner;
        this.repository = repository;
        this.steps = steps;
        this.routes = routes;
        this.control = control;
    }

    JobExecution run() {
        if (!startedAtLaunch && !begin()) {
            LOG.infof("Job '%s' execution %s was asked to stop before it started", definition.name(), execution.id());
            return execution;
        }
        LOG.infof("Job '%s' execution %s (attempt %d) started", definition.name(), execution.id(), execution.attempt());
        JobCallbacks callbacks = steps.listeners().forJob(definition);
        JobContextImpl job = JobContextImpl.running(definition.name(), parameters, execution);
        if (unresolved.isPresent()) {
            // no node runs, no listener is called: a restart with other parameters may run the job
            LOG.errorf("Job '%s' execution %s cannot run with its parameters: %s", definition.name(), execution.id(),
                    unresolved.get().getMessage());
            JobExecution ended = finish(JobEnd.failed(ExitStatus.defaultFor(ExecutionStatus.FAILED),
                    new ExecutionFailure(PLAN_NOT_RESOLVED, unresolved.get().getMessage())));
            job.endRecorded();
            return ended;
        }
        JobEnd end;
        try {
            callbacks.beforeJob(new JobEvent(definition.name(), parameters, execution, job));
            end = walk(job, callbacks);
        } catch (Throwable e) {
            // an Error of user code fails the job like an exception: nothing may escape unrecorded
            end = JobEnd.failed(ExitStatus.defaultFor(ExecutionStatus.FAILED), ExecutionFailure.of(e));
            if (TransientFailures.isTransient(e)) {
                // bookkeeping that ran out of its lease's budget: the job failed for want of its repository
                control.repositoryLost(e);
            }
            if (control.lostBecause().isEmpty()) {
                LOG.errorf(e, "Job '%s' execution %s failed", definition.name(), execution.id());
            }
        }
        JobExecution ended = finish(ending(end, job, callbacks));
        job.endRecorded();
        if (!ended.status().isActive()) {
            // an end this process could not record is left to recovery: there is no end to tell of
            callbacks.afterJob(new JobEvent(definition.name(), parameters, ended, job));
        }
        if (ended.status().isActive() || control.lostBecause().isPresent() && ended.status() != end.status()) {
            return ended;
        }
        LOG.infof("Job '%s' execution %s ended %s (exit %s)%s", definition.name(), ended.id(), ended.status(),
                ended.exitStatus().code(), ended.failure().map(f -> ": " + f.message()).orElse(""));
        return ended;
    }

    /**
     * The end to record: with the exit status the job's context holds, after the job end listeners
     * had their say (unless it was recorded with the last step's completion, which there are none for).
     */
    private JobEnd ending(JobEnd flowEnd, JobContextImpl job, JobCallbacks callbacks) {
        if (endedWithStep.isPresent() && endedWithStep.get().status() == flowEnd.status()) {
            return flowEnd;
        }
        JobEnd end = flowEnd.settledBy(job);
        if (!callbacks.listensBeforeEnd() || control.lostBecause().isPresent()) {
            return end;
        }
        Throwable failure = callbacks.beforeJobEnd(new JobEnding(definition.name(), parameters, execution, end.status(),
                end.failure(), job));
        return (failure == null ? end : end.failedBy(failure)).settledBy(job);
    }

    private JobEnd walk(JobContextImpl job, JobCallbacks callbacks) {
        // the launch started the first node already when it could, at the restart position it found
        Node node = begun.<Node> map(StepRunners.StepStart::step).orElseGet(() -> newInstance ? definition.startNode()
                : bookkeeping.record("the restart position of job execution " + execution.id(),
                        () -> RestartPosition.of(repository, definition, execution, false)));
        FlowWalk.Run run = new FlowWalk.Run(repository, steps, routes, SPLITS, definition, execution, control, owner,
                newInstance, ConcurrentHashMap.newKeySet());
        FlowWalk flow = new FlowWalk(run, job, begun, !callbacks.listensBeforeEnd());
        try {
            return flow.walk(node);
        } finally {
            endedWithStep = flow.endedWithStep();
        }
    }

    /**
     * STARTING to STARTED, or straight to STOPPED if a stop was requested meanwhile; observes control
     * (and renews the lease) first, in the same transaction. Returns whether the execution started.
     */
    private boolean begin() {
        return bookkeeping.record("the start of job execution " + execution.id(), () -> {
            ExecutionControl observed = repository.observeExecutionControl(execution.id(), owner, Instant.now());
            boolean stop = observed.stopRequested() || control.stopRequested();
            if (observed.status() != ExecutionStatus.STARTING) {
                // an earlier try committed but its acknowledgement was lost
                execution = repository.getJobExecution(execution.id()).orElseThrow();
                return observed.status() == ExecutionStatus.STARTED && !stop;
            }
            execution = repository.transitionJobExecution(execution.id(), observed.version(),
                    LifecycleTransition.to(stop ? ExecutionStatus.STOPPED : ExecutionStatus.STARTED, Instant.now()));
            return !stop;
        });
    }

    /** The restart an end whose acknowledgement was lost would have created with it, in its own transaction. */
    private void restartIfRepositoryLost(JobExecution ended) {
        if (ended.status() == ExecutionStatus.FAILED && control.repositoryLost()) {
            bookkeeping.record("the restart of job execution " + ended.id(),
                    () -> restarts.prepare(definition.name(), ended))
                    .ifPresent(launch -> restarts.run(launch, definition.name(), ended));
        }
    }

    /** The recorded end, and the restart created with it, if the restart policy asked for one. */
    private record Ended(JobExecution execution, Optional<KernelJobOperator.Launch> restart) {
    }

    /**
     * Records the end, from the status and version observed in the same transaction: a stop request
     * or an observation of the heartbeat may have moved the execution (to STOPPING) meanwhile. No step
     * of the execution may still be active: the end of a job is never recorded over a running child.
     * An execution that is no longer ours (recovered elsewhere after our lease ran out) is fenced:
     * nothing more is recorded, the work is abandoned here. One whose end cannot be recorded for as
     * long as its lease lasts is left to recovery.
     */
    private JobExecution finish(JobEnd end) {
        if (endedWithStep.isPresent() && endedWithStep.get().status() == end.status()) {
            // recorded with the last step's completion
            execution = endedWithStep.get();
            return execution;
        }
        LifecycleTransition ending = end.transition(Instant.now());
        try {
            Ended ended = bookkeeping.record("the end of job execution " + execution.id(), () -> {
                ExecutionControl observed = repository.observeExecutionControl(execution.id(), owner, Instant.now());
                ExecutionVersion version = observed.version();
                LifecycleTransition recorded = ending;
                List<StepExecution> active = repository.stepExecutions(execution.id()).stream()
                        .filter(step -> step.status().isActive()).toList();
                if (!active.isEmpty() && end.status() != ExecutionStatus.FAILED) {
                    recorded = LifecycleTransition.to(ExecutionStatus.FAILED, Instant.now())
                            .withFailure(new ExecutionFailure("io.durablebatch.StepStillActive", "step execution(s) "
                                    + active.stream().map(s -> s.id().toString()).toList() + " still active"));
                }
                if (recorded.target() == ExecutionStatus.STOPPED && observed.status() == ExecutionStatus.STARTED) {
                    version = repository.transitionJobExecution(execution.id(), version,
                            LifecycleTransition.to(ExecutionStatus.STOPPING, Instant.now())).version();
                }
                for (StepExecution step : active) {
                    // a step left active by a failure that could not record it: it ends with the job
                    repository.transitionStepExecution(step.id(), step.version(), LifecycleTransition
                            .to(ExecutionStatus.FAILED, Instant.now()).withFailure(end.failure().orElse(
                                    new ExecutionFailure("io.durablebatch.JobEnded", "its job execution ended "
                                            + end.status()))));
                }
                JobExecution recordedEnd = repository.transitionJobExecution(execution.id(), version, recorded);
                // a job that failed for want of its repository restarts as after the loss of its owner
                return new Ended(recordedEnd, recordedEnd.status() == ExecutionStatus.FAILED && control.repositoryLost()
                        ? restarts.prepare(definition.name(), recordedEnd)
                        : Optional.empty());
            });
            execution = ended.execution();
            ended.restart().ifPresent(launch -> restarts.run(launch, definition.name(), ended.execution()));
            return execution;
        } catch (RepositoryException e) {
            if (e.error() == RepositoryError.EXECUTION_NOT_ACTIVE || e.error() == RepositoryError.OWNER_MISMATCH) {
                JobExecution current = QuarkusTransaction.requiringNew().call(
                        () -> repository.getJobExecution(execution.id()).orElseThrow());
                boolean recovered = QuarkusTransaction.requiringNew().call(
                        () -> repository.recoveryDecision(execution.id()).isPresent());
                if (current.status() == ending.target() && !recovered) {
                    // our own end, committed on a try whose acknowledgement was lost (the heartbeat may
                    // have seen it first and called the execution lost): it stands, with its restart
                    execution = current;
                    restartIfRepositoryLost(current);
                    return current;
                }
                LOG.warnf("Job '%s' execution %s is no longer this process's to run: it is %s (%s). The work done "
                        + "here is abandoned; nothing more is recorded by %s", definition.name(), execution.id(),
                        current.status(), control.lostBecause().orElse(e.getMessage()), owner);
                return current;
            }
            throw e;
        }
    }
}
