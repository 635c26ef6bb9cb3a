package io.durablebatch.deployment;

import java.util.List;

import org.eclipse.microprofile.config.ConfigProvider;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.runtime.flow.FlowDecisionStore;
import io.durablebatch.runtime.flow.FlowStore;
import io.durablebatch.runtime.partition.PartitionAggregationStore;
import io.durablebatch.runtime.partition.PartitionAssignmentStore;
import io.durablebatch.runtime.partition.PartitionLeaseStore;
import io.durablebatch.runtime.partition.PartitionStore;
import io.durablebatch.runtime.operator.ExecutionControlStore;
import io.durablebatch.runtime.operator.OperatorAuditStore;
import io.durablebatch.runtime.repository.DefinitionUpgradeStore;
import io.durablebatch.runtime.repository.JobExecutionStore;
import io.durablebatch.runtime.repository.JobInstanceStore;
import io.durablebatch.runtime.repository.PostgresJobRepository;
import io.durablebatch.runtime.repository.RecoveryStore;
import io.durablebatch.runtime.repository.RepositoryProducers;
import io.durablebatch.runtime.repository.StepExecutionStore;
import io.durablebatch.runtime.retention.PurgeStore;
import io.durablebatch.runtime.retention.RetentionAuditStore;
import io.durablebatch.runtime.retention.RetentionHoldStore;
import io.durablebatch.runtime.schema.SchemaMigrator;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.RunTimeConfigurationDefaultBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;

/** Registers the job repository: the feature, its beans and the datasource it needs at runtime. */
class DurableBatchProcessor {

    static final String FEATURE = "durable-batch";

    /** Longer than any repository statement may run (quarkus.durable-batch.statements.timeout, 30 s). */
    static final String SOCKET_TIMEOUT_SECONDS = "300";

    /** The repository's beans, each in the package of its capability. */
    static final List<Class<?>> REPOSITORY_BEANS = List.of(
            RepositoryProducers.class,
            SchemaMigrator.class,
            JobInstanceStore.class,
            JobExecutionStore.class,
            StepExecutionStore.class,
            DefinitionUpgradeStore.class,
            RecoveryStore.class,
            FlowStore.class,
            FlowDecisionStore.class,
            PartitionStore.class,
            PartitionAssignmentStore.class,
            PartitionAggregationStore.class,
            PartitionLeaseStore.class,
            OperatorAuditStore.class,
            ExecutionControlStore.class,
            RetentionHoldStore.class,
            RetentionAuditStore.class,
            PurgeStore.class,
            PostgresJobRepository.class);

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    @BuildStep
    AdditionalBeanBuildItem repositoryBeans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(REPOSITORY_BEANS.stream().map(Class::getName).toList())
                .setUnremovable()
                .build();
    }

    /**
     * A finite socket timeout and TCP keepalive for the repository's datasource, unless the
     * application sets its own: a half-open connection (the server gone without a reset) otherwise
     * blocks a read for as long as the operating system allows, hours, and with it the heartbeat that
     * keeps every execution's lease. The datasource is the one named at build time.
     */
    @BuildStep
    List<RunTimeConfigurationDefaultBuildItem> repositoryConnectionTimeouts() {
        String dataSource = ConfigProvider.getConfig().getOptionalValue("quarkus.durable-batch.datasource", String.class)
                .map(name -> "quarkus.datasource.\"" + name + "\".")
                .orElse("quarkus.datasource.");
        String properties = dataSource + "jdbc.additional-jdbc-properties.";
        return List.of(new RunTimeConfigurationDefaultBuildItem(properties + "socketTimeout", SOCKET_TIMEOUT_SECONDS),
                new RunTimeConfigurationDefaultBuildItem(properties + "tcpKeepAlive", "true"));
    }

    @BuildStep
    UnremovableBeanBuildItem repositoryDataSources() {
        // The datasource is chosen by name at runtime (quarkus.durable-batch.datasource), so no
        // injection point tells ArC to keep it.
        return UnremovableBeanBuildItem.beanTypes(AgroalDataSource.class, JobRepository.class);
    }
}
