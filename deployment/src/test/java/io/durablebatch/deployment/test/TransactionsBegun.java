package io.durablebatch.deployment.test;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.transaction.TransactionScoped;

/**
 * Counts every JTA transaction begun in the application, as Quarkus announces it: what the cost
 * tests compare before and after the work they count. A test adds it to its application.
 */
@Singleton
public class TransactionsBegun {

    private final AtomicLong count = new AtomicLong();

    void begun(@Observes @Initialized(TransactionScoped.class) Object transaction) {
        count.incrementAndGet();
    }

    /** The transactions begun since the application started. */
    public long count() {
        return count.get();
    }
}
