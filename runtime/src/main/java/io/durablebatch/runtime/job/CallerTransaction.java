package io.durablebatch.runtime.job;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

import jakarta.inject.Singleton;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.jboss.logging.Logger;

import io.durablebatch.execution.JobExecutionId;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The transaction an operator request runs in: the caller's, when the calling thread has an active
 * JTA transaction, else one of its own (as every request ran before launches joined). A launch
 * made in the caller's transaction is handed to the kernel's threads only once that transaction
 * committed (an interposed synchronization's {@code afterCompletion}); rolled back, it leaves
 * nothing. Should the process die between the commit and the hand-off, the launch is a committed
 * execution claimed by this process with a lease nobody renews: any node's sweeper recovers it once
 * the lease ran out, and restarts it as the job's owner-loss restart policy says.
 */
@Singleton
public class CallerTransaction {

    private static final Logger LOG = Logger.getLogger(CallerTransaction.class);

    /** The transaction's resource key of the launches it hands off once it commits. */
    private static final Object PENDING = CallerTransaction.class.getName() + ".pending";

    private final TransactionSynchronizationRegistry registry;
    private final AtomicInteger lostHandOffs = new AtomicInteger();

    CallerTransaction(TransactionSynchronizationRegistry registry) {
        this.registry = registry;
    }

    /**
     * Whether a request made now joins the caller's transaction. A transaction that can no longer
     * commit (marked for rollback, or completing) is refused: what the request recorded in it could
     * never take effect, and a launch never run.
     */
    boolean joins() {
        int status = registry.getTransactionStatus();
        if (status == Status.STATUS_NO_TRANSACTION) {
            return false;
        }
        if (status == Status.STATUS_ACTIVE) {
            return true;
        }
        throw new IllegalStateException("the caller's transaction is " + statusName(status) + ": a job operator "
                + "request joins the caller's transaction, and this one can no longer commit");
    }

    /** {@code work} in the caller's transaction if there is one, else in a transaction of its own. */
    <T> T call(Supplier<T> work) {
        return joins() ? work.get() : QuarkusTransaction.requiringNew().call(work::get);
    }

    /** {@code work} in the caller's transaction if there is one, else in a transaction of its own. */
    void run(Runnable work) {
        if (joins()) {
            work.run();
        } else {
            QuarkusTransaction.requiringNew().run(work);
        }
    }

    /**
     * Runs {@code action} once the caller's transaction committed (never if it rolls back), or at
     * once without one.
     */
    void afterCommit(Runnable action) {
        if (!joins()) {
            action.run();
            return;
        }
        registry.registerInterposedSynchronization(onCommit(action));
    }

    /**
     * Hands {@code launch} to {@code submit} once the caller's transaction committed. Launched twice
     * in one transaction (a request repeated with its operation id), an execution is handed off
     * once.
     */
    void submitAfterCommit(KernelJobOperator.Launch launch, Consumer<KernelJobOperator.Launch> submit) {
        Map<JobExecutionId, KernelJobOperator.Launch> pending = pending();
        if (pending.isEmpty()) {
            registry.putResource(PENDING, pending);
            registry.registerInterposedSynchronization(
                    onCommit(() -> pending.values().forEach(committed -> handOff(committed, submit))));
        }
        pending.putIfAbsent(launch.execution().id(), launch);
    }

    /** A synchronization that runs {@code action} once the transaction committed, never on a rollback. */
    private static Synchronization onCommit(Runnable action) {
        return new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    action.run();
                }
            }
        };
    }

    private void handOff(KernelJobOperator.Launch launch, Consumer<KernelJobOperator.Launch> submit) {
        if (lostHandOffs.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
            LOG.warnf("Job execution %s committed and is not handed off (a simulated death of this process)",
                    launch.execution().id());
            return;
        }
        try {
            submit.accept(launch);
        } catch (RuntimeException e) {
            // after the commit nobody can be told: the lease runs out and recovery takes the execution
            LOG.errorf(e, "Job execution %s committed but could not be started here: it is left to recovery once "
                    + "its lease runs out", launch.execution().id());
        }
    }

    /** Whether {@code execution} was launched in the caller's transaction, which has not committed yet. */
    boolean launchedUncommitted(JobExecutionId execution) {
        return registry.getTransactionStatus() != Status.STATUS_NO_TRANSACTION && pendingIfAny()
                .map(pending -> pending.containsKey(execution)).orElse(false);
    }

    @SuppressWarnings("unchecked")
    private Optional<Map<JobExecutionId, KernelJobOperator.Launch>> pendingIfAny() {
        return Optional.ofNullable((Map<JobExecutionId, KernelJobOperator.Launch>) registry.getResource(PENDING));
    }

    private Map<JobExecutionId, KernelJobOperator.Launch> pending() {
        return pendingIfAny().orElseGet(LinkedHashMap::new);
    }

    /**
     * For tests of recovery: the next {@code count} launches committed in a caller's transaction are
     * not handed off, as if this process died right after the commit.
     */
    public void loseNextHandOffs(int count) {
        lostHandOffs.set(count);
    }

    private static String statusName(int status) {
        return switch (status) {
            case Status.STATUS_MARKED_ROLLBACK -> "marked for rollback";
            case Status.STATUS_PREPARING, Status.STATUS_PREPARED, Status.STATUS_COMMITTING -> "committing";
            case Status.STATUS_ROLLING_BACK, Status.STATUS_ROLLEDBACK -> "rolling back";
            case Status.STATUS_COMMITTED -> "committed";
            default -> "in status " + status;
        };
    }
}
