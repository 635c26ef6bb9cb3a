package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.Node;
import io.durablebatch.job.Step;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;

/**
 * What commits with the completion of a flow's step, in the step's last unit of work: the route the
 * flow takes from it and, where the route leads, the start of the next step or the job's end. A job
 * of one step thus ends in the transaction of its last chunk, and a step boundary is one commit.
 * <p>
 * Whatever cannot join that transaction is left to its own, as when nothing joins it: a decision
 * next (it runs user code), a partitioned step, a start the start limit refuses, a stop route, an
 * end after the repository was lost (its restart is prepared with it) or one the owner may no
 * longer record, and an end that user code may still give an exit status after the completion
 * commits (a step or chunk listener of the step, a job end listener). What was taken counts only
 * once the completion it was taken with committed: the runner adopts it for the very snapshot that
 * completion recorded.
 */
final class StepBoundary implements StepAttempt.Completion {

    /** What the completion's transaction recorded with it, and the step version that completion moves to. */
    record Taken(StepExecutionId step, ExecutionVersion completedAt, Route route, Optional<StepRunners.StepStart> next,
            Optional<JobExecution> ended) {
    }

    private final KernelRepository repository;
    private final FlowRoutes routes;
    private final StepRunners steps;
    private final JobDefinition definition;
    private final JobExecution execution;
    private final Step step;
    private final Set<String> visited;
    private final boolean newInstance;
    private final OwnerToken owner;
    private final ExecutionHandle control;
    private final JobContextImpl job;
    private final boolean endMayJoin;
    private Taken taken;

    /**
     * @param endMayJoin whether nothing runs between the flow's end and its record (no job end
     *        listener), so the job's end may commit with the step's completion
     */
    StepBoundary(KernelRepository repository, FlowRoutes routes, StepRunners steps, JobDefinition definition,
            JobExecution execution, Step step, Set<String> visited, boolean newInstance, OwnerToken owner,
            ExecutionHandle control, JobContextImpl job, boolean endMayJoin) {
        this.job = job;
        this.endMayJoin = endMayJoin;
        this.repository = repository;
        this.routes = routes;
        this.steps = steps;
        this.definition = definition;
        this.execution = execution;
        this.step = step;
        this.visited = visited;
        this.newInstance = newInstance;
        this.owner = owner;
        this.control = control;
    }

    /**
     * Records, before the completion itself (see {@link StepAttempt.Completion}), the route from the
     * step and the next step's start or the job's end.
     */
    @Override
    public void recordWith(StepExecution running, ExitStatus exitStatus, boolean lastWord) {
        taken = null; // a try that rolled back took nothing
        Route route = routes.recordAfterStep(definition, execution, step,
                new StepOutcome(ExecutionStatus.COMPLETED, exitStatus, Optional.empty(), false, running));
        Optional<StepRunners.StepStart> next = Optional.empty();
        Optional<JobExecution> ended = Optional.empty();
        if (route.continues()) {
            Node target = definition.node(route.target().orElseThrow()).orElseThrow();
            if (target instanceof Step following && !visited.contains(following.id())) {
                // in an instance this execution created, a node not visited yet has no history
                next = steps.startEagerly(following, execution, newInstance);
            }
        } else if (endMayJoin && lastWord && route.end().orElseThrow().status() != ExecutionStatus.STOPPED
                && !control.repositoryLost()) {
            ended = end(route.end().orElseThrow().settledBy(job));
        }
        taken = new Taken(running.id(), running.version().next(), route, next, ended);
    }

    /** The job's end, unless the owner may no longer record it: then its own transaction finds out why. */
    private Optional<JobExecution> end(JobEnd end) {
        try {
            return Optional.of(repository.endOwnedJobExecution(execution.id(), owner, end.transition(Instant.now())));
        } catch (RepositoryException e) {
            // found by reading, not by a failed statement: the transaction goes on
            if (e.error() == RepositoryError.OWNER_MISMATCH || e.error() == RepositoryError.EXECUTION_NOT_ACTIVE) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** What was taken with the completion that recorded {@code outcome}, if that is how the step ended. */
    Optional<Taken> takenWith(StepOutcome outcome) {
        return Optional.ofNullable(taken).filter(with -> !outcome.reused()
                && outcome.status() == ExecutionStatus.COMPLETED && with.step().equals(outcome.execution().id())
                && with.completedAt().equals(outcome.execution().version()));
    }
}
