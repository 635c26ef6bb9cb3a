package io.durablebatch.deployment;

import java.util.List;
import java.util.Optional;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTransformation;

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
import io.durablebatch.runtime.sql.RepositorySessions;
import io.quarkus.agroal.DataSource;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AnnotationsTransformerBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.deployment.annotations.BuildProducer;
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
     * keeps every execution's lease.
     */
    @BuildStep
    List<RunTimeConfigurationDefaultBuildItem> repositoryConnectionTimeouts() {
        String dataSource = repositoryDataSource()
                .map(name -> "quarkus.datasource.\"" + name + "\".")
                .orElse("quarkus.datasource.");
        String properties = dataSource + "jdbc.additional-jdbc-properties.";
        return List.of(new RunTimeConfigurationDefaultBuildItem(properties + "socketTimeout", SOCKET_TIMEOUT_SECONDS),
                new RunTimeConfigurationDefaultBuildItem(properties + "tcpKeepAlive", "true"));
    }

    /**
     * The session setup of the repository's datasource (the server ends sessions left idle in a
     * transaction). Agroal applies a pool interceptor to the datasource its qualifier names, so a
     * named repository datasource gets the qualifier here.
     */
    @BuildStep
    void repositorySessions(BuildProducer<AdditionalBeanBuildItem> beans,
            BuildProducer<AnnotationsTransformerBuildItem> qualifiers) {
        beans.produce(AdditionalBeanBuildItem.unremovableOf(RepositorySessions.class));
        repositoryDataSource().ifPresent(name -> qualifiers.produce(new AnnotationsTransformerBuildItem(
                AnnotationTransformation.forClasses()
                        .whenClass(RepositorySessions.class)
                        .transform(context -> context.add(AnnotationInstance.builder(DataSource.class)
                                .value(name)
                                .build())))));
    }

    /**
     * The named datasource of the repository, empty for the default one: read at build time because
     * the datasource's configuration defaults and pool interceptor are decided at build time.
     */
    static Optional<String> repositoryDataSource() {
        return ConfigProvider.getConfig().getOptionalValue("quarkus.durable-batch.datasource", String.class)
                .filter(name -> !DataSourceUtil.isDefault(name));
    }

    @BuildStep
    UnremovableBeanBuildItem repositoryDataSources() {
        // The datasource is chosen by name at runtime (quarkus.durable-batch.datasource), so no
        // injection point tells ArC to keep it.
        return UnremovableBeanBuildItem.beanTypes(AgroalDataSource.class, JobRepository.class);
    }
}
