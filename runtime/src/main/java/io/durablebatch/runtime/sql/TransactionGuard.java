package io.durablebatch.runtime.sql;

import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;

import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;

/** Enforces that repository calls run inside the caller's active JTA transaction. */
public final class TransactionGuard {

    private final TransactionManager transactionManager;

    public TransactionGuard(TransactionManager transactionManager) {
        this.transactionManager = transactionManager;
    }

    /** Fails with {@code TRANSACTION_REQUIRED} unless a transaction is active on this thread. */
    public void requireActive(String operation) {
        int status = status();
        if (status != Status.STATUS_ACTIVE) {
            throw new RepositoryException(RepositoryError.TRANSACTION_REQUIRED, operation
                    + " must run inside an active JTA transaction (@Transactional or QuarkusTransaction); "
                    + "the current one is " + describe(status));
        }
    }

    /**
     * Fails with {@code TRANSACTION_REQUIRED} if this thread holds a transaction that is not active
     * (marked for rollback, completing): a call that runs in the caller's transaction or without one
     * cannot join it, and must not run as though there were none.
     */
    public void requireActiveOrNone(String operation) {
        int status = status();
        if (status != Status.STATUS_ACTIVE && status != Status.STATUS_NO_TRANSACTION) {
            throw new RepositoryException(RepositoryError.TRANSACTION_REQUIRED, operation
                    + " runs in the caller's active JTA transaction or without one; the current one is "
                    + describe(status));
        }
    }

    void markRollbackOnly() {
        try {
            if (status() == Status.STATUS_ACTIVE) {
                transactionManager.setRollbackOnly();
            }
        } catch (SystemException | IllegalStateException e) {
            // the transaction is already ending: it cannot commit anyway
        }
    }

    private int status() {
        try {
            return transactionManager.getStatus();
        } catch (SystemException e) {
            throw new RepositoryException(RepositoryError.STORAGE_FAILURE, "cannot read the transaction status", e);
        }
    }

    private static String describe(int status) {
        return switch (status) {
            case Status.STATUS_NO_TRANSACTION -> "absent";
            case Status.STATUS_MARKED_ROLLBACK -> "marked for rollback";
            case Status.STATUS_COMMITTING, Status.STATUS_COMMITTED -> "committing";
            case Status.STATUS_ROLLING_BACK, Status.STATUS_ROLLEDBACK -> "rolling back";
            default -> "in status " + status;
        };
    }
}
