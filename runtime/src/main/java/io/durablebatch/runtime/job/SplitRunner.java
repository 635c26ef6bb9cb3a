package io.durablebatch.runtime.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Split;
import io.durablebatch.job.SplitFlow;
import io.durablebatch.runtime.sql.BatchThread;
import io.durablebatch.runtime.sql.TransientFailures;

/**
 * Runs the flows of a {@link Split} in parallel, each on a thread of its own (with a request context
 * of its own, as an execution's thread has) and its own transactions, and joins them. The split's
 * outcome: COMPLETED when every flow completed, else the end of the first flow (in declaration
 * order) that failed, else of the first that stopped; a failing flow does not cut the others short,
 * as a stop request reaches each of them by the execution's handle. Each flow walks with its own
 * view of the job's context ({@link JobContextImpl#forFlow()}).
 */
final class SplitRunner {

    private static final Logger LOG = Logger.getLogger(SplitRunner.class);

    /** The exit code of a split all of whose flows completed, which its transitions match. */
    static final ExitStatus COMPLETED = ExitStatus.defaultFor(ExecutionStatus.COMPLETED);

    /** How the flows ended: the job's end when one did not complete, else the last steps of every flow. */
    record Joined(Optional<JobEnd> end, List<StepExecution> lastSteps) {
    }

    Joined run(Split split, FlowWalk.Run run, JobContextImpl job) {
        List<SplitFlow> flows = split.flows();
        AtomicInteger started = new AtomicInteger();
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        ExecutorService pool = Executors.newFixedThreadPool(flows.size(), task -> {
            return new BatchThread(task, "durable-batch-split-" + split.id() + "-" + started.incrementAndGet(),
                    classLoader, false);
        });
        LOG.debugf("Split '%s' of job '%s' runs %d flows", split.id(), run.definition().name(), flows.size());
        try {
            List<FlowWalk> walks = new ArrayList<>();
            List<Future<JobEnd>> ends = new ArrayList<>();
            for (SplitFlow flow : flows) {
                FlowWalk walk = new FlowWalk(run, job.forFlow(), Optional.empty(), false);
                walks.add(walk);
                ends.add(pool.submit(() -> PartitionWorker.inRequestContext(
                        () -> walked(walk, run, split, flow))));
            }
            List<JobEnd> ended = new ArrayList<>();
            for (Future<JobEnd> end : ends) {
                ended.add(joined(end, run, split));
            }
            List<StepExecution> lastSteps = walks.stream().flatMap(walk -> walk.lastSteps().stream()).toList();
            Optional<JobEnd> end = first(ended, ExecutionStatus.FAILED).or(() -> first(ended, ExecutionStatus.STOPPED));
            return new Joined(end, lastSteps);
        } finally {
            pool.shutdown();
        }
    }

    /** A flow's end; whatever escapes its walk (a user's Error included) fails the flow. */
    private static JobEnd walked(FlowWalk walk, FlowWalk.Run run, Split split, SplitFlow flow) {
        try {
            return walk.walk(run.definition().node(flow.startNode()).orElseThrow());
        } catch (Throwable e) {
            if (TransientFailures.isTransient(e)) {
                // bookkeeping that ran out of its lease's budget: the job failed for want of its repository
                run.control().repositoryLost(e);
            }
            LOG.errorf(e, "A flow of split '%s' of job '%s' execution %s failed", split.id(), run.definition().name(),
                    run.execution().id());
            return JobEnd.failed(ExitStatus.defaultFor(ExecutionStatus.FAILED), ExecutionFailure.of(e));
        }
    }

    private static JobEnd joined(Future<JobEnd> end, FlowWalk.Run run, Split split) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return end.get();
                } catch (InterruptedException e) {
                    // the flows hold step executions: the split ends when they do, never before
                    interrupted = true;
                    run.control().requestStop();
                } catch (ExecutionException e) {
                    return JobEnd.failed(ExitStatus.defaultFor(ExecutionStatus.FAILED), ExecutionFailure.of(e.getCause()));
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Optional<JobEnd> first(List<JobEnd> ends, ExecutionStatus status) {
        return ends.stream().filter(end -> end.status() == status).findFirst();
    }
}
