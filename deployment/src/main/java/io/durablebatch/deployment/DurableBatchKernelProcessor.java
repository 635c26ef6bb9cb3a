package io.durablebatch.deployment;

import java.util.List;
import java.util.Optional;

import io.durablebatch.job.JobDefinition;
import io.durablebatch.runtime.job.CallerTransaction;
import io.durablebatch.runtime.job.ChunkFaults;
import io.durablebatch.runtime.job.FlowRoutes;
import io.durablebatch.runtime.job.FlowStepHistory;
import io.durablebatch.runtime.job.JobRegistry;
import io.durablebatch.runtime.job.KernelIdentity;
import io.durablebatch.runtime.job.KernelJobOperator;
import io.durablebatch.runtime.job.KernelListeners;
import io.durablebatch.runtime.job.KernelRecorder;
import io.durablebatch.runtime.job.KernelTestHooks;
import io.durablebatch.runtime.job.LeaseSweeper;
import io.durablebatch.runtime.job.OperatorAudit;
import io.durablebatch.runtime.job.OwnerLossRestarts;
import io.durablebatch.runtime.job.RemotePartitionWorkers;
import io.durablebatch.runtime.job.RunningExecutions;
import io.durablebatch.runtime.job.RunningStepInputs;
import io.durablebatch.runtime.job.StartupRecovery;
import io.durablebatch.runtime.job.StepLeases;
import io.durablebatch.runtime.job.StepRunners;
import io.durablebatch.runtime.lease.LeaseLiveness;
import io.durablebatch.runtime.lease.LeaseStore;
import io.durablebatch.runtime.metrics.MicrometerExecutionMeters;
import io.durablebatch.runtime.metrics.MicrometerKernelMetrics;
import io.durablebatch.runtime.observe.BatchTracing;
import io.durablebatch.runtime.observe.ExecutionObservers;
import io.durablebatch.runtime.observe.LogContext;
import io.durablebatch.runtime.observe.TraceContextStore;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.processor.DotNames;
import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.deployment.annotations.Consume;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.ServiceStartBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.runtime.metrics.MetricsFactory;

/**
 * Registers the execution kernel: its beans, and the application's job definitions. Switched off
 * as a whole by {@code quarkus.durable-batch.kernel.enabled=false}.
 */
@BuildSteps(onlyIf = KernelEnabled.class)
class DurableBatchKernelProcessor {

    /** The class of the test library that makes the kernel register its test hooks. */
    static final String TEST_LIBRARY = "io.durablebatch.test.JobTester";

    /** The kernel's beans. */
    static final List<Class<?>> KERNEL_BEANS = List.of(
            JobRegistry.class,
            KernelIdentity.class,
            OperatorAudit.class,
            StartupRecovery.class,
            FlowStepHistory.class,
            FlowRoutes.class,
            StepRunners.class,
            KernelListeners.class,
            RunningExecutions.class,
            RunningStepInputs.class,
            StepLeases.class,
            LeaseStore.class,
            LeaseLiveness.class,
            LeaseSweeper.class,
            OwnerLossRestarts.class,
            RemotePartitionWorkers.class,
            CallerTransaction.class,
            ExecutionObservers.class,
            LogContext.class,
            TraceContextStore.class,
            KernelJobOperator.class);

    @BuildStep
    AdditionalBeanBuildItem kernelBeans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(KERNEL_BEANS.stream().map(Class::getName).toList())
                .setUnremovable()
                .build();
    }

    /**
     * Registers the job definitions and runs startup recovery at runtime init, after the schema's
     * migration and before any startup observer of the application can launch a job.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    @Consume(RepositorySchemaReadyBuildItem.class)
    ServiceStartBuildItem start(KernelRecorder recorder) {
        recorder.start();
        return new ServiceStartBuildItem(DurableBatchProcessor.FEATURE + "-kernel");
    }

    /**
     * The hooks of the test library ({@code quarkus-durable-batch-junit}, whose {@value #TEST_LIBRARY}
     * calls them): beans only when it is on the classpath, so a production build has none and its
     * chunk loop skips their one check.
     */
    @BuildStep
    void testHooks(BuildProducer<AdditionalBeanBuildItem> beans) {
        if (QuarkusClassLoader.isClassPresentAtRuntime(TEST_LIBRARY)) {
            beans.produce(AdditionalBeanBuildItem.builder().addBeanClasses(ChunkFaults.class, KernelTestHooks.class)
                    .setUnremovable().build());
        }
    }

    /**
     * The kernel's meters, where the application has Micrometer: the bean that registers them names
     * Micrometer's types, so it exists only then.
     */
    @BuildStep
    void metrics(Optional<MetricsCapabilityBuildItem> metrics, BuildProducer<AdditionalBeanBuildItem> beans) {
        if (metrics.isPresent() && metrics.get().metricsSupported(MetricsFactory.MICROMETER)) {
            beans.produce(AdditionalBeanBuildItem.builder()
                    .addBeanClasses(MicrometerKernelMetrics.class, MicrometerExecutionMeters.class)
                    .setDefaultScope(DotNames.SINGLETON).setUnremovable().build());
        }
    }

    /**
     * The kernel's spans, where the application has OpenTelemetry's tracer
     * ({@code quarkus-opentelemetry}): the bean that opens them names OpenTelemetry's types, so it
     * exists only then, as the Micrometer meters do.
     */
    @BuildStep
    void tracing(Capabilities capabilities, BuildProducer<AdditionalBeanBuildItem> beans) {
        if (capabilities.isPresent(Capability.OPENTELEMETRY_TRACER)) {
            beans.produce(AdditionalBeanBuildItem.builder().addBeanClasses(BatchTracing.class)
                    .setDefaultScope(DotNames.SINGLETON).setUnremovable().build());
        }
    }

    @BuildStep
    UnremovableBeanBuildItem jobDefinitions() {
        // Definitions are looked up by name at launch time, never injected: keep every producer.
        return UnremovableBeanBuildItem.beanTypes(JobDefinition.class);
    }
}
