package io.durablebatch.runtime.job;

import java.util.ArrayList;
import java.util.List;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.jboss.logging.Logger;

import io.durablebatch.context.StepContext;
import io.durablebatch.listener.SkipListener;

/**
 * The kernel's skip log ({@code quarkus.durable-batch.skips.log}): each skipped item once at WARN,
 * in category {@code io.durablebatch.skips}, once the chunk that skipped it committed. Skip listeners
 * run inside the chunk's transaction, which may still roll back and be tried again; so the lines of a
 * transaction wait in it and are printed by its commit, and a rolled-back try prints nothing.
 */
final class SkipWarnings implements SkipListener {

    private static final Logger SKIPS = Logger.getLogger("io.durablebatch.skips");

    private final TransactionSynchronizationRegistry transactions;

    SkipWarnings(TransactionSynchronizationRegistry transactions) {
        this.transactions = transactions;
    }

    @Override
    public void onSkipInRead(StepContext step, Exception failure) {
        atCommit(step, SkipTally.describe(null, failure));
    }

    @Override
    public void onSkipInProcess(StepContext step, Object item, Exception failure) {
        atCommit(step, SkipTally.describe(item, failure));
    }

    @Override
    public void onSkipInWrite(StepContext step, Object item, Exception failure) {
        atCommit(step, SkipTally.describe(item, failure));
    }

    private void atCommit(StepContext step, String skipped) {
        String line = "Job '" + step.jobName() + "' execution " + step.jobExecutionId() + ", step '" + step.stepName()
                + "': skipped " + skipped;
        if (transactions.getTransactionStatus() == Status.STATUS_NO_TRANSACTION) {
            // the skips of a chunk whose reads failed the step, told outside any transaction
            SKIPS.warn(line);
            return;
        }
        @SuppressWarnings("unchecked")
        List<String> pending = (List<String>) transactions.getResource(this);
        if (pending == null) {
            List<String> lines = new ArrayList<>();
            transactions.putResource(this, lines);
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        lines.forEach(SKIPS::warn);
                    }
                }
            });
            pending = lines;
        }
        pending.add(line);
    }

    @Override
    public String toString() {
        return "the kernel's skip log";
    }
}
