package io.durablebatch.runtime.job;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.execution.JobName;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.lease.LeaseStore;
import io.durablebatch.runtime.lease.RateLimitedWarning;
import io.durablebatch.runtime.metrics.KernelMetrics;
import io.durablebatch.runtime.sql.BatchThread;
import io.durablebatch.runtime.sql.ProcessSessions;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Automatic recovery, on every node: at each sweep interval, one statement looks for an active
 * execution whose lease ran out (on the database clock) and locks it with {@code SKIP LOCKED}, so
 * nodes never recover the same execution twice nor wait on each other. A node takes executions of
 * the jobs it defines, so it can restart them; those of a job no live node defines any more, once
 * their lease ran out ten times over. It is recovered as FAILED
 * (with its steps and partitions), audited with actor {@code system:lease} and reason
 * {@code OWNER_LOST}, and, if the job's restart policy allows, restarted here as a new attempt in
 * the same transaction. Executions whose lease is live are never touched, nor those that run in
 * this process (its heartbeat renews them under the same owner token once the database answers), and
 * it never ends the sessions of its own process: one of its own executions that no longer runs here is
 * recovered like any other, without them.
 */
@Singleton
public class LeaseSweeper {

    private static final Logger LOG = Logger.getLogger(LeaseSweeper.class);
    /** At most this many recoveries per sweep: a mass failure is worked off over a few sweeps. */
    private static final int PER_SWEEP = 100;

    /** What one recovery did. */
    private record Swept(RecoveryResult recovery, JobName jobName, String owner, Optional<KernelJobOperator.Launch> restart) {
    }

    private final LeaseStore leases;
    private final OperatorAudit audit;
    private final OwnerLossRestarts restarts;
    private final JobRegistry registry;
    private final boolean enabled;
    private final Duration interval;
    private ScheduledExecutorService sweeper;
    private final KernelMetrics metrics;
    private final RunningExecutions running;
    private final KernelIdentity identity;
    private final RateLimitedWarning failures = new RateLimitedWarning(LOG,
            "Looking for executions whose lease ran out", Duration.ofMinutes(1));

    LeaseSweeper(LeaseStore leases, OperatorAudit audit, OwnerLossRestarts restarts,
            JobRegistry registry, DurableBatchConfig config, Instance<KernelMetrics> metrics,
            RunningExecutions running, KernelIdentity identity) {
        this.running = running;
        this.identity = identity;
        this.registry = registry;
        this.metrics = KernelMetrics.of(metrics);
        this.leases = leases;
        this.audit = audit;
        this.restarts = restarts;
        this.enabled = config.lease().sweeperEnabled();
        this.interval = config.lease().sweepInterval();
        if (enabled && interval.toMillis() <= 0) {
            throw new IllegalArgumentException("quarkus.durable-batch.lease.sweep-interval must be positive, got "
                    + interval);
        }
    }

    /** Starts sweeping once the job registry is loaded (restarts need the definitions). */
    void onStart(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        sweeper = Executors.newSingleThreadScheduledExecutor(task -> {
            return new BatchThread(task, "durable-batch-lease-sweeper", classLoader, true);
        });
        sweeper.scheduleWithFixedDelay(this::sweepQuietly, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void sweepQuietly() {
        try {
            sweep();
            failures.succeeded();
        } catch (RuntimeException e) {
            metrics.sweepFailed();
            failures.failed(e);
        }
    }

    /** Recovers executions whose lease ran out, up to a bound; returns how many it recovered. */
    public int sweep() {
        int recovered = 0;
        while (recovered < PER_SWEEP) {
            Optional<Swept> swept = QuarkusTransaction.requiringNew().call(this::recoverOne);
            if (swept.isEmpty()) {
                return recovered;
            }
            recovered++;
            RecoveryResult result = swept.get().recovery();
            LOG.warnf("Recovered job '%s' execution %s as FAILED: its owner %s let its lease run out while it was %s",
                    swept.get().jobName(), result.execution().id(), swept.get().owner(),
                    result.decision().observedStatus());
            metrics.recovered(swept.get().jobName().value());
            swept.get().restart().ifPresent(launch -> restarts.run(launch, swept.get().jobName(), result.execution()));
        }
        return recovered;
    }

    private Optional<Swept> recoverOne() {
        return leases.lockExpired(registry.definitions().stream().map(JobDefinition::name).toList(),
                running.runningHere()).map(expired -> {
                    long ended = endSessionsOf(expired.owner());
                    if (ended > 0) {
                        LOG.warnf("Ended %d database session(s) of %s still inside a transaction: its lease ran out, and a "
                                + "frozen process keeps its locks", ended, expired.owner());
                    }
                    OperatorCall call = OperatorCall.of("lease-recovery:" + expired.id(), LeaseStore.ACTOR);
                    ReasonCode reason = ReasonCode.of(LeaseStore.OWNER_LOST);
                    RecoveryResult result = audit.recover(expired.id(), new RecoveryRequest(call.operationId(), call.actor(),
                            reason, RecoveryResolution.FAILED, expired.version(), Instant.now()),
                            "RECOVERED as FAILED: the lease of " + expired.owner() + " ran out");
                    return new Swept(result, expired.jobName(), expired.owner(),
                            restarts.prepare(expired.jobName(), result.execution()));
                });
    }

    /**
     * {@link LeaseStore#endSessionsOf}, in a transaction of its own: a role that may not signal
     * another session (neither the same role nor {@code pg_signal_backend}) leaves them to the
     * server's idle-in-transaction timeout, and the recovery goes on.
     */
    private long endSessionsOf(String owner) {
        if (ProcessSessions.bootIdOf(owner).filter(identity.bootId()::equals).isPresent()) {
            // this process's own execution, no longer running here (its runner gave it up): this process
            // is not frozen, and its sessions are its sweeper's own transaction and its live work
            return 0;
        }
        try {
            return QuarkusTransaction.requiringNew().call(() -> leases.endSessionsOf(owner));
        } catch (RuntimeException e) {
            LOG.warnf("Could not end the database sessions of %s, whose lease ran out (the role needs "
                    + "pg_signal_backend, or to be the sessions' own): %s", owner, e.getMessage());
            return 0;
        }
    }

    /**
     * Stops sweeping when the application shuts down, before its datasources close: a sweep that began
     * during shutdown would fail on a closed pool (and log it).
     */
    void onShutdown(@Observes ShutdownEvent event) {
        close();
    }

    @PreDestroy
    void close() {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
    }
}
