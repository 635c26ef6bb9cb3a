package io.durablebatch.runtime.job;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.durablebatch.job.PartitionContext;
import io.durablebatch.job.Step;
import io.durablebatch.partition.PartitionPlanEntry;
import io.durablebatch.partition.StepPartition;
import io.durablebatch.repository.Checkpoint;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.StepExecution;
import io.durablebatch.repository.StepExecutionId;
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
 * back, leaving no trace, when nothing is left. A worker resumes the checkpoint of the worker that
 * ran its partition in the parent attempt being resumed.
 */
final class PartitionWorker {

    private static final Logger LOG = Logger.getLogger(PartitionWorker.class);

    /**
     * A plan a worker takes part in: its parent, the parent's context (job, parameters, execution),
     * the worker step, the checkpoints of unfinished partitions of the resumed plan (by key), and the
     * stop signal the worker observes.
     */
    record Plan(StepExecutionId parent, JobExecutionId jobExecution, StepContextImpl parentContext, Step worker,
            Map<String, Checkpoint> resumed, StopSignal control) {
    }

    /** A claimed partition and the worker step attempt that runs it. */
    private record Claim(StepExecution worker, StepPartition partition) {
    }

    private final JobRepository repository;
    private final StepRunners steps;

    PartitionWorker(JobRepository repository, StepRunners steps) {
        this.repository = repository;
        this.steps = steps;
    }

    /** Claims and runs partitions of {@code plan} until none is left or a stop is requested; returns how many ran. */
    int work(Plan plan) {
        int ran = 0;
        while (!plan.control().stopRequested()) {
            // nothing left to claim rolls the worker attempt back: it leaves no trace
            Optional<Claim> claimed = Transactions.commitIfPresent(() -> {
                StepExecution created = repository.createStepExecution(plan.jobExecution(), plan.worker().name());
                return repository.claimNextStepPartition(plan.parent(), created.id())
                        .map(partition -> new Claim(steps.started(created,
                                Optional.ofNullable(plan.resumed().get(key(partition.entry())))), partition));
            });
            if (claimed.isEmpty()) {
                return ran;
            }
            run(plan, claimed.get());
            ran++;
        }
        return ran;
    }

    private void run(Plan plan, Claim claim) {
        StepPartition partition = claim.partition();
        Checkpoint resumeFrom = plan.resumed().get(key(partition.entry()));
        PartitionContext partitionContext = new PartitionContext(partition.entry(), partition.ordinal());
        StepContextImpl context = plan.parentContext().forWorker(plan.worker(), claim.worker(), resumeFrom != null,
                partitionContext);
        StepOutcome outcome = steps.run(new StepAttempt(repository, plan.worker(), context, Optional.empty(),
                Optional.ofNullable(resumeFrom), plan.control(), claim.worker()));
        QuarkusTransaction.requiringNew().run(() -> repository.completeStepPartition(partition.id(),
                partition.version(), claim.worker().id()));
        LOG.debugf("Partition %d (%s) of step execution %s ended %s in worker step execution %s", partition.ordinal(),
                partitionContext.key(), plan.parent(), outcome.status(), claim.worker().id());
    }

    /**
     * The checkpoints of the unfinished partitions of a previous plan, by key: where their workers
     * resume. Joins the caller's transaction.
     */
    Map<String, Checkpoint> checkpointsOfUnfinished(List<StepPartition> previousPlan) {
        Map<String, Checkpoint> checkpoints = new HashMap<>();
        for (StepPartition partition : previousPlan) {
            if (partition.status() != ExecutionStatus.COMPLETED && partition.worker().isPresent()) {
                repository.getStepExecution(partition.worker().get()).flatMap(StepExecution::checkpoint)
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
