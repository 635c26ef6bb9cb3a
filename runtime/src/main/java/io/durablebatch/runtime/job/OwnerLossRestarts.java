package io.durablebatch.runtime.job;

import java.util.Optional;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobName;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.lease.LeaseStore;
import io.durablebatch.runtime.metrics.KernelMetrics;

/**
 * The restart policy for executions whose owner was lost (its lease ran out, or it lost the
 * repository for longer than its lease): restart as a new attempt, here, at most
 * {@code restartOnOwnerLoss} times per instance (the job's own setting, else
 * {@code quarkus.durable-batch.lease.restart-on-owner-loss}). The restarts made so far are counted
 * from the operator audit, so the limit holds across nodes and crashes. The new attempt is created
 * in the caller's transaction, the one that recorded the loss: a crash in between cannot lose it.
 */
@Singleton
public class OwnerLossRestarts {

    private static final Logger LOG = Logger.getLogger(OwnerLossRestarts.class);

    private final JobRegistry registry;
    private final LeaseStore leases;
    private final Provider<KernelJobOperator> operator;
    private final int defaultLimit;
    private final KernelMetrics metrics;

    OwnerLossRestarts(JobRegistry registry, LeaseStore leases, Provider<KernelJobOperator> operator,
            DurableBatchConfig config, Instance<KernelMetrics> metrics) {
        this.registry = registry;
        this.metrics = KernelMetrics.of(metrics);
        this.leases = leases;
        this.operator = operator;
        this.defaultLimit = config.lease().restartOnOwnerLoss();
        if (defaultLimit < 0) {
            throw new IllegalArgumentException("quarkus.durable-batch.lease.restart-on-owner-loss must be 0 or more, got "
                    + defaultLimit);
        }
    }

    /**
     * Creates the restart of {@code lost} (just recovered or ended FAILED in the caller's transaction)
     * if the policy allows one more; run it with {@link #run} after the commit.
     */
    Optional<KernelJobOperator.Launch> prepare(JobName jobName, JobExecution lost) {
        Optional<JobDefinition> definition = registry.find(jobName.value());
        int limit = definition.flatMap(d -> d.restartOnOwnerLoss().isPresent()
                ? Optional.of(d.restartOnOwnerLoss().getAsInt())
                : Optional.empty()).orElse(defaultLimit);
        if (definition.isEmpty() || limit == 0) {
            return Optional.empty();
        }
        long restarts = leases.ownerLossRestarts(lost.jobInstanceId());
        if (restarts >= limit) {
            LOG.warnf("Job '%s' execution %s lost its owner, but its instance was restarted automatically %d time(s) "
                    + "already (the limit): it stays FAILED for an operator to restart", jobName, lost.id(),
                    restarts);
            return Optional.empty();
        }
        // one operation id per lost execution: two nodes restarting it are one restart
        OperatorCall call = OperatorCall.of("owner-loss-restart:" + lost.id(), LeaseStore.ACTOR);
        return Optional.of(operator.get().restartInTransaction(lost.id(), Optional.empty(), call));
    }

    /** Runs a restart prepared by {@link #prepare}, once its transaction committed. */
    void run(KernelJobOperator.Launch launch, JobName jobName, JobExecution lost) {
        LOG.infof("Job '%s' execution %s lost its owner: restarted automatically as execution %s", jobName,
                lost.id(), launch.execution().id());
        metrics.restartedOnOwnerLoss(jobName.value());
        operator.get().submit(launch);
    }
}
