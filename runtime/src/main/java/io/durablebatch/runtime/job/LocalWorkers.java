package io.durablebatch.runtime.job;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.durablebatch.job.PartitionedStep;
import io.durablebatch.runtime.sql.BatchThread;

/**
 * The parent's own worker threads. Started again, up to the step's worker count, while partitions
 * wait for a worker (released from dead workers, or left by a claim that failed transiently); the
 * first failure of a thread stops the handing out of work, and the others end after their partition.
 * Only the parent's thread uses it.
 */
final class LocalWorkers implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LocalWorkers.class);

    /** A parent that cannot see its plan for long fails its polls at every interval: keep a few. */
    private static final int MAX_SUPPRESSED = 10;

    private final PartitionWorker workers;
    private final PartitionWorker.Plan plan;
    private final int size;
    private final ExecutorService pool;
    private final CompletionService<Integer> ends;
    private final Set<Future<Integer>> running = new HashSet<>();
    private volatile boolean handingOut = true;
    private Throwable failure;

    LocalWorkers(PartitionWorker workers, PartitionedStep step, int size, PartitionWorker.Plan plan) {
        this.workers = workers;
        this.plan = plan;
        this.size = size;
        AtomicInteger started = new AtomicInteger();
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        this.pool = Executors.newFixedThreadPool(size, task -> {
            return new BatchThread(task, "durable-batch-partition-" + step.id() + "-" + started.incrementAndGet(),
                    classLoader, false);
        });
        this.ends = new ExecutorCompletionService<>(pool);
    }

    /** Starts workers until {@code size} run, unless work is no longer handed out. */
    void handOut() {
        while (handingOut && running.size() < size) {
            running.add(ends.submit(() -> PartitionWorker.inRequestContext(() -> workers.work(plan,
                    () -> handingOut))));
        }
    }

    /** Records a failure that ends the handing out of work; the first one is kept, later ones suppressed. */
    void fail(Throwable cause) {
        handingOut = false;
        if (failure == null) {
            failure = cause;
        } else if (failure != cause && failure.getSuppressed().length < MAX_SUPPRESSED) {
            failure.addSuppressed(cause);
        }
    }

    /** Whether no local worker runs. */
    boolean idle() {
        collectEnded();
        return running.isEmpty();
    }

    Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** Waits up to {@code millis} for a local worker to end; false if interrupted meanwhile. */
    boolean awaitAnyEnd(long millis) {
        try {
            Future<Integer> ended = ends.poll(millis, TimeUnit.MILLISECONDS);
            if (ended != null) {
                collect(ended);
            }
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    private void collectEnded() {
        for (Future<Integer> ended = ends.poll(); ended != null; ended = ends.poll()) {
            collect(ended);
        }
    }

    private void collect(Future<Integer> ended) {
        running.remove(ended);
        try {
            ended.get();
        } catch (ExecutionException | CancellationException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            if (failure == null) {
                LOG.errorf(cause, "A local worker of step execution %s failed: no more partitions are handed "
                        + "out, and the step ends once its other workers have", plan.parent());
            }
            fail(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // cannot happen: the future is done
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
