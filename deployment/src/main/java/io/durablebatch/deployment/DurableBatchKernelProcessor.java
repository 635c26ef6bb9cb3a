package io.durablebatch.deployment;

import java.util.List;

import io.durablebatch.job.JobDefinition;
import io.durablebatch.runtime.job.FlowRoutes;
import io.durablebatch.runtime.job.FlowStepHistory;
import io.durablebatch.runtime.job.JobRegistry;
import io.durablebatch.runtime.job.KernelIdentity;
import io.durablebatch.runtime.job.KernelJobOperator;
import io.durablebatch.runtime.job.LeaseSweeper;
import io.durablebatch.runtime.job.OperatorAudit;
import io.durablebatch.runtime.job.OwnerLossRestarts;
import io.durablebatch.runtime.job.RemotePartitionWorkers;
import io.durablebatch.runtime.job.RunningExecutions;
import io.durablebatch.runtime.job.StartupRecovery;
import io.durablebatch.runtime.job.StepLeases;
import io.durablebatch.runtime.job.StepRunners;
import io.durablebatch.runtime.lease.LeaseStore;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;

/** Registers the execution kernel: its beans, and the application's job definitions. */
class DurableBatchKernelProcessor {

    /** The kernel's beans. */
    static final List<Class<?>> KERNEL_BEANS = List.of(
            JobRegistry.class,
            KernelIdentity.class,
            OperatorAudit.class,
            StartupRecovery.class,
            FlowStepHistory.class,
            FlowRoutes.class,
            StepRunners.class,
            RunningExecutions.class,
            StepLeases.class,
            LeaseStore.class,
            LeaseSweeper.class,
            OwnerLossRestarts.class,
            RemotePartitionWorkers.class,
            KernelJobOperator.class);

    @BuildStep
    AdditionalBeanBuildItem kernelBeans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(KERNEL_BEANS.stream().map(Class::getName).toList())
                .setUnremovable()
                .build();
    }

    @BuildStep
    UnremovableBeanBuildItem jobDefinitions() {
        // Definitions are looked up by name at launch time, never injected: keep every producer.
        return UnremovableBeanBuildItem.beanTypes(JobDefinition.class);
    }
}
