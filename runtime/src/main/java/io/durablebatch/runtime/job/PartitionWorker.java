package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.durablebatch.context.PartitionContext;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.job.Step;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.partition.PartitionLeaseStore;
import io.durablebatch.runtime.sql.TransientFailures;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The worker side of a partitioned step, the same in every process: claims partitions of one plan
 * one at a time through the repository and runs each as a worker step attempt, until none is left or
 * a stop is requested. The process running the parent runs it on its local worker threads, other
 * processes of the application on their remote worker threads ({@link RemotePartitionWorkers}).
 * <p>
 * Each claim is one transaction that creates the worker step attempt and assigns it the next
 * unassigned partition, skipping partitions other workers (of any process) are claiming; it rolls
 * back, leaving no trace, when nothing is left. A worker resumes the checkpoint of the worker its
 * partition was released from (that worker's lease ran out: its process died), or else of the worker
 * that ran its partition in the parent attempt being resumed.
 */
final class PartitionWorker {

    private static final Logger LOG = Logger.getLogger(PartitionWorker.class);

    /**
     * A plan a worker takes part in: its parent, the parent's context (job, parameters, execution),
     * the worker step, the checkpoints of unfinished partitions of the resumed plan (by key), the
     * stop signal the worker observes, and where a local worker of a step with an analyzer tells what
     * it collects and how its partition ended (null otherwise).
     */
    record Plan(StepExecutionId parent, JobExecutionId jobExecution, StepContextImpl parentContext, Step worker,
            Map<String, Checkpoint> resumed, StopSignal control, PartitionEvents events) {
    }

    /** A claimed partition, the worker step attempt that runs it and the checkpoint it resumes. */
    private record Claim(StepExecution worker, StepPartition partition, Optional<Checkpoint> resumeFrom) {
    }

    private final KernelRepository repository;
    private final PartitionLeaseStore leases;
    private final StepRunners steps;

    PartitionWorker(KernelRepository repository, PartitionLeaseStore leases, StepRunners steps) {
        this.repository = repository;
        this.leases = leases;
        this.steps = steps;
    }

    /** Claims and runs partitions of {@code plan} until none is left or a stop is requested; returns how many ran. */
    int work(Plan plan) {
        return work(plan, () -> true);
    }

    /**
     * Claims and runs partitions of {@code plan} until none is left, a stop is requested or
     * {@code handingOut} turns false or the parent refuses claims (it hands out no more work); returns how
     * many ran. A claim that fails transiently ends the loop too: the parent hands the work out again at
     * its next poll.
     */
    int work(Plan plan, BooleanSupplier handingOut) {
        int ran = 0;
        while (!plan.control().stopRequested() && handingOut.getAsBoolean()) {
            Optional<Claim> claimed;
            try {
                claimed = claim(plan);
            } catch (RuntimeException e) {
                if (e instanceof RepositoryException refusal
                        && refusal.error() == RepositoryError.PARTITION_PARENT_NOT_ACTIVE) {
                    return ran; // the parent ended, or closed its plan: it hands out no more work
                }
                if (!TransientFailures.isTransient(e)) {
                    throw e;
                }
                LOG.debugf("Claiming a partition of step execution %s failed transiently: %s", plan.parent(), e);
                return ran;
            }
            if (claimed.isEmpty()) {
                return ran;
            }
            run(plan, claimed.get());
            ran++;
        }
        return ran;
    }

    /** One transaction; nothing left to claim rolls the worker attempt back: it leaves no trace. */
    private Optional<Claim> claim(Plan plan) {
        return Transactions.commitIfPresent(() -> {
            StepExecution created = repository.createStepExecution(plan.jobExecution(), plan.worker().name());
            return repository.claimNextStepPartition(plan.parent(), created.id()).map(partition -> {
                Optional<Checkpoint> resumeFrom = resumeFrom(plan, partition);
                return new Claim(steps.started(created, resumeFrom), partition, resumeFrom);
            });
        });
    }

    /**
     * Where the worker of {@code partition} resumes: the checkpoint of the worker it was released from
     * (whose process died), else that of its worker in the resumed plan. Joins the caller's transaction.
     */
    private Optional<Checkpoint> resumeFrom(Plan plan, StepPartition partition) {
        Optional<Checkpoint> released = partition.previousWorker().flatMap(repository::getStepExecution)
                .flatMap(StepExecution::checkpoint);
        return released.or(() -> Optional.ofNullable(plan.resumed().get(key(partition.entry()))));
    }

    private void run(Plan plan, Claim claim) {
        StepPartition partition = claim.partition();
        PartitionContext partitionContext = new PartitionContext(partition.entry(), partition.ordinal(),
                plan.parent());
        StepContextImpl context = plan.parentContext().forWorker(plan.worker(), claim.worker(),
                claim.resumeFrom().isPresent(), partitionContext, plan.events());
        StepOutcome outcome;
        try {
            outcome = steps.run(new StepAttempt(repository, steps.bookkeeping(), plan.worker(), context,
                    Optional.empty(), claim.resumeFrom(), plan.control(), claim.worker()));
        } catch (RuntimeException | Error failure) {
            boolean own = endAfter(failure, plan, claim);
            if (plan.events() != null) {
                plan.events().ended(partitionContext, ExecutionStatus.FAILED, ExitStatus.of("FAILED"));
            }
            if (own) {
                throw failure;
            }
            return;
        }
        if (plan.events() != null) {
            // before the completion: the parent sees the partition ended only after this
            plan.events().ended(partitionContext, outcome.status(), outcome.exitStatus());
        }
        if (outcome.status() == ExecutionStatus.STOPPED && plan.control().leaving() && handBack(plan, claim)) {
            return;
        }
        complete(plan, claim);
        LOG.debugf("Partition %d (%s) of step execution %s ended %s in worker step execution %s", partition.ordinal(),
                partitionContext.key(), plan.parent(), outcome.status(), claim.worker().id());
    }

    /** Hands the partition back to its plan as this process leaves; returns whether it did. */
    private boolean handBack(Plan plan, Claim claim) {
        try {
            boolean handed = steps.bookkeeping().record("the hand-back of partition " + claim.partition().id(),
                    () -> leases.handBack(claim.partition().id(), claim.worker().id(), Instant.now()));
            if (handed) {
                LOG.infof("Partition %d of step execution %s handed back as this process shuts down: another worker "
                        + "resumes it from its checkpoint", claim.partition().ordinal(), plan.parent());
            }
            return handed;
        } catch (RuntimeException e) {
            LOG.warnf("Partition %d of step execution %s could not be handed back: %s", claim.partition().ordinal(),
                    plan.parent(), e.getMessage());
            return false;
        }
    }

    /**
     * Completes the partition from its worker's durable result, again after transient failures. Never
     * throws: a partition its worker could not complete is settled by the parent once the worker's
     * lease has run out, and one the parent released or settled meanwhile (this worker's lease ran out)
     * is no longer this worker's.
     */
    private void complete(Plan plan, Claim claim) {
        StepPartition partition = claim.partition();
        StepExecutionId worker = claim.worker().id();
        try {
            steps.bookkeeping().record("the completion of partition " + partition.id(),
                    () -> repository.completeStepPartition(partition.id(), partition.version(), worker));
        } catch (RuntimeException e) {
            if (completedFrom(partition, worker)) {
                return; // a completion whose acknowledgement was lost, or the parent settled it: it stands
            }
            LOG.warnf("Worker step execution %s could not complete partition %d of step execution %s (its parent "
                    + "settles it once the worker's lease has run out): %s", worker, partition.ordinal(),
                    plan.parent(), e.getMessage());
        }
    }

    /** Whether {@code partition} holds the result of {@code worker}. Reads the plan: only on a refusal. */
    private boolean completedFrom(StepPartition partition, StepExecutionId worker) {
        try {
            return QuarkusTransaction.requiringNew().call(() -> repository.stepPartitionPlan(
                    partition.parentStepExecutionId())).stream().anyMatch(p -> p.id().equals(partition.id())
                            && p.isDone() && p.worker().equals(Optional.of(worker)));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * After the step runner threw (an Error, or a failure it could not record): ends the worker FAILED
     * if it is still active, so it is not left running under a parent that ends, and completes the
     * partition with that result. Returns whether the failure is the worker's own; it is not when the
     * worker had already been ended by someone else (its parent released its partition after its lease
     * ran out, or its job was recovered): then its refused commits are what failed, and the partition
     * is in other hands.
     */
    private boolean endAfter(Throwable failure, Plan plan, Claim claim) {
        StepExecutionId worker = claim.worker().id();
        if (TransientFailures.isTransient(failure)) {
            // the partition failed for want of the repository: the job restarts as after a lost owner
            plan.control().repositoryLost(failure);
        }
        try {
            boolean ended = steps.bookkeeping().record("the failure of worker step execution " + worker,
                    () -> failIfActive(worker, failure));
            if (!ended && failure instanceof RepositoryException) {
                LOG.warnf("Worker step execution %s of step execution %s was ended elsewhere while it ran (its lease "
                        + "ran out, or its job was recovered): %s", worker, plan.parent(), failure.getMessage());
                return false;
            }
            complete(plan, claim);
        } catch (RuntimeException e) {
            // its lease is no longer renewed: the parent releases its partition once the lease has run out
            failure.addSuppressed(e);
        }
        return true;
    }

    /** Ends {@code worker} FAILED with {@code failure} if it is still active; returns whether it was. */
    private boolean failIfActive(StepExecutionId worker, Throwable failure) {
        StepExecution current = repository.getStepExecution(worker).orElseThrow();
        if (!current.status().isActive()) {
            return false;
        }
        repository.transitionStepExecution(current.id(), current.version(), LifecycleTransition
                .to(ExecutionStatus.FAILED, Instant.now()).withFailure(ExecutionFailure.of(failure)));
        return true;
    }

    /**
     * The checkpoints of the unfinished partitions of a previous plan, by key: where their workers
     * resume. Joins the caller's transaction.
     */
    Map<String, Checkpoint> checkpointsOfUnfinished(List<StepPartition> previousPlan) {
        Map<String, Checkpoint> checkpoints = new HashMap<>();
        for (StepPartition partition : previousPlan) {
            // a partition released from a dead worker has no worker, but names the one it was released from
            Optional<StepExecutionId> worker = partition.worker().or(partition::previousWorker);
            if (partition.status() != ExecutionStatus.COMPLETED && worker.isPresent()) {
                repository.getStepExecution(worker.get()).flatMap(StepExecution::checkpoint)
                        .ifPresent(checkpoint -> checkpoints.put(key(partition.entry()), checkpoint));
            }
        }
        return checkpoints;
    }

    /** Runs on a worker thread with an active request context, as step code may expect one. */
    static <T> T inRequestContext(Supplier<T> work) {
        ManagedContext requestContext = Arc.container().requestContext();
        requestContext.activate();
        try {
            return work.get();
        } finally {
            requestContext.terminate();
        }
    }

    private static String key(PartitionPlanEntry entry) {
        return HexFormat.of().formatHex(entry.key());
    }
}
