package io.durablebatch.runtime.lease;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Singleton;

import io.durablebatch.runtime.DurableBatchConfig;

/**
 * Whether this process can renew its leases, as its heartbeat last found: the time of the last
 * renewal the database confirmed and the renewals that failed since. Read by the steps (which stop
 * committing once their lease may have run out, without asking the database) and by the health check.
 * Times are this process's monotonic clock: a confirmation counts from when its statement was sent,
 * never later than the database's clock stamped the lease.
 */
@Singleton
public class LeaseLiveness {

    private final long leaseNanos;
    private volatile long confirmedAt = System.nanoTime();
    private volatile boolean holding;
    private final AtomicLong failedSince = new AtomicLong();

    LeaseLiveness(DurableBatchConfig config) {
        this.leaseNanos = config.lease().duration().toNanos();
    }

    /** This process holds no lease: it has none to lose. */
    public void idle() {
        confirmedAt = System.nanoTime();
        holding = false;
        failedSince.set(0);
    }

    /** A renewal is about to be sent: this process holds leases. */
    public void renewing() {
        holding = true;
    }

    /** A renewal sent at {@code sentAt} ({@link System#nanoTime()}) was confirmed. */
    public void confirmed(long sentAt) {
        confirmedAt = sentAt;
        failedSince.set(0);
    }

    /** A renewal failed; returns how many failed in a row, this one included. */
    public long failed() {
        return failedSince.incrementAndGet();
    }

    /** Whether a lease confirmed at {@code confirmedAt} may have run out by now. */
    public boolean lapsed(long confirmedAt) {
        return System.nanoTime() - confirmedAt >= leaseNanos;
    }

    /**
     * Whether this process holds leases it could not renew for longer than the lease: they may have
     * run out. Whether its renewals failed or hang (a half-open connection) makes no difference.
     */
    public boolean lost() {
        return holding && lapsed(confirmedAt);
    }

    /** How long ago the last renewal was confirmed. */
    public Duration sinceConfirmed() {
        return Duration.ofMillis(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - confirmedAt));
    }

    /** How many renewals failed in a row. */
    public long failedRenewals() {
        return failedSince.get();
    }

    public Duration lease() {
        return Duration.ofNanos(leaseNanos);
    }
}
