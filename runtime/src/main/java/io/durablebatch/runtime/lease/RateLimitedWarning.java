package io.durablebatch.runtime.lease;

import java.time.Duration;

import org.jboss.logging.Logger;

/**
 * A failure that repeats (a renewal or a sweep while the database is away) logged at WARN the first
 * time and then at most once per interval with the number of failures in between, and its end at
 * INFO: an outage is told, not hidden at DEBUG, and does not flood the log.
 */
public final class RateLimitedWarning {

    private final Logger log;
    private final String what;
    private final long intervalNanos;
    private long failures;
    private long lastWarned;

    public RateLimitedWarning(Logger log, String what, Duration interval) {
        this.log = log;
        this.what = what;
        this.intervalNanos = interval.toNanos();
    }

    /** One more failure. */
    public synchronized void failed(Throwable failure) {
        long now = System.nanoTime();
        failures++;
        if (failures == 1 || now - lastWarned >= intervalNanos) {
            lastWarned = now;
            log.warnf("%s failed (%d time(s) in a row): %s", what, failures, failure.toString());
            log.debugf(failure, "%s failed", what);
        }
    }

    /** It worked: an end of failures is told once. */
    public synchronized void succeeded() {
        if (failures > 0) {
            log.infof("%s works again after %d failure(s) in a row", what, failures);
            failures = 0;
        }
    }
}
