package io.durablebatch.deployment;

import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import jakarta.enterprise.inject.Default;
import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTransformation;
import org.jboss.jandex.ClassType;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.runtime.DurableBatchBuildTimeConfig;
import io.durablebatch.runtime.flow.FlowDecisionStore;
import io.durablebatch.runtime.flow.FlowStore;
import io.durablebatch.runtime.metrics.MicrometerStatementTimer;
import io.durablebatch.runtime.operator.ExecutionControlStore;
import io.durablebatch.runtime.operator.OperatorAuditStore;
import io.durablebatch.runtime.partition.PartitionAggregationStore;
import io.durablebatch.runtime.partition.PartitionAssignmentStore;
import io.durablebatch.runtime.partition.PartitionLeaseStore;
import io.durablebatch.runtime.partition.PartitionStore;
import io.durablebatch.runtime.repository.DefinitionUpgradeStore;
import io.durablebatch.runtime.repository.JobExecutionListing;
import io.durablebatch.runtime.repository.JobExecutionStore;
import io.durablebatch.runtime.repository.JobInstanceStore;
import io.durablebatch.runtime.repository.PostgresJobRepository;
import io.durablebatch.runtime.repository.RecoveryStore;
import io.durablebatch.runtime.repository.RepositoryCallInterceptor;
import io.durablebatch.runtime.repository.RepositoryProducers;
import io.durablebatch.runtime.repository.RepositoryRecorder;
import io.durablebatch.runtime.repository.StepExecutionStore;
import io.durablebatch.runtime.retention.PurgeStore;
import io.durablebatch.runtime.retention.RetentionAuditStore;
import io.durablebatch.runtime.retention.RetentionHoldStore;
import io.durablebatch.runtime.schema.SchemaMigrator;
import io.durablebatch.runtime.sql.ProcessSessions;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.durablebatch.runtime.sql.RepositorySessions;
import io.quarkus.agroal.spi.JdbcDataSourceBuildItem;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AnnotationsTransformerBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.processor.DotNames;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.RunTimeConfigurationDefaultBuildItem;
import io.quarkus.deployment.builditem.nativeimage.RuntimeInitializedClassBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.runtime.metrics.MetricsFactory;

/** Registers the job repository: the feature, its beans and the datasource it needs at runtime. */
public class DurableBatchProcessor {

    public static final String FEATURE = "durable-batch";

    /** The repository's beans, each in the package of its capability. */
    static final List<Class<?>> REPOSITORY_BEANS = List.of(
            RepositoryProducers.class,
            SchemaMigrator.class,
            JobInstanceStore.class,
            JobExecutionStore.class,
            JobExecutionListing.class,
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
            PostgresJobRepository.class,
            RepositoryCallInterceptor.class);

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
     * The repository's datasource, chosen by {@code quarkus.durable-batch.datasource} among the
     * configured datasources: a name that matches none fails the build, listing those there are.
     */
    @BuildStep
    RepositoryDataSourceBuildItem repositoryDataSource(DurableBatchBuildTimeConfig config,
            List<JdbcDataSourceBuildItem> dataSources) {
        String name = config.datasource().orElse(DataSourceUtil.DEFAULT_DATASOURCE_NAME);
        if (dataSources.stream().noneMatch(dataSource -> dataSource.getName().equals(name))) {
            String property = DataSourceUtil.isDefault(name) ? "quarkus.datasource.db-kind"
                    : "quarkus.datasource.\"" + name + "\".db-kind";
            throw new ConfigurationException("Durable Batch needs the datasource "
                    + (DataSourceUtil.isDefault(name) ? "<default>" : "'" + name + "'")
                    + " (quarkus.durable-batch.datasource), which is not configured; the configured datasources are "
                    + dataSources.stream().map(JdbcDataSourceBuildItem::getName).sorted().toList()
                    + ". Configure it with " + property + "=postgresql");
        }
        return new RepositoryDataSourceBuildItem(name);
    }

    /**
     * The repository's datasource as one bean, {@code @RepositoryDataSource AgroalDataSource}: its
     * injection point keeps the chosen datasource's bean, and only that one, in the application.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    SyntheticBeanBuildItem repositoryDataSourceBean(RepositoryDataSourceBuildItem dataSource,
            RepositoryRecorder recorder) {
        return SyntheticBeanBuildItem.configure(AgroalDataSource.class)
                .types(AgroalDataSource.class, DataSource.class)
                .addQualifier(RepositoryDataSource.class)
                .scope(Singleton.class)
                .unremovable()
                .setRuntimeInit()
                .addInjectionPoint(ClassType.create(AgroalDataSource.class), qualifier(dataSource))
                .createWith(recorder.repositoryDataSource(dataSource.name()))
                .done();
    }

    private static AnnotationInstance qualifier(RepositoryDataSourceBuildItem dataSource) {
        return dataSource.isDefault() ? AnnotationInstance.builder(Default.class).build()
                : AnnotationInstance.builder(io.quarkus.agroal.DataSource.class).value(dataSource.name()).build();
    }

    /**
     * TCP keepalive for the repository's datasource, unless the application sets its own: a half-open
     * connection (the server gone without a reset) is found by the operating system. No socket or
     * idle-in-transaction timeout is imposed on the datasource: it is the application's too, and a
     * long write of its own inside a chunk must be allowed to finish; the kernel bounds its own
     * statements (query timeouts below the lease) and its steps stop committing on this process's
     * clock once their lease may have run out.
     */
    @BuildStep
    RunTimeConfigurationDefaultBuildItem repositoryConnectionKeepAlive(RepositoryDataSourceBuildItem dataSource) {
        return new RunTimeConfigurationDefaultBuildItem(
                dataSource.configPrefix() + "jdbc.additional-jdbc-properties.tcpKeepAlive", "true");
    }

    /**
     * The marks of the repository datasource's sessions while batch work uses them (and the
     * idle-in-transaction timeout the application may ask for). Agroal applies a pool interceptor to the datasource its
     * qualifier names, so a
     * named repository datasource gets the qualifier here.
     */
    @BuildStep
    void repositorySessions(RepositoryDataSourceBuildItem dataSource, BuildProducer<AdditionalBeanBuildItem> beans,
            BuildProducer<AnnotationsTransformerBuildItem> qualifiers) {
        beans.produce(AdditionalBeanBuildItem.builder().addBeanClasses(RepositorySessions.class, ProcessSessions.class)
                .setUnremovable().build());
        if (!dataSource.isDefault()) {
            qualifiers.produce(new AnnotationsTransformerBuildItem(AnnotationTransformation.forClasses()
                    .whenClass(RepositorySessions.class)
                    .transform(context -> context.add(qualifier(dataSource)))));
        }
    }

    /**
     * The boot id is drawn by the bean when the process starts; the class is initialised at run time
     * too, so a native image never bakes one id into every replica, whatever touches it at build time.
     */
    /**
     * The repository statements' timer, where the application has Micrometer: the bean names
     * Micrometer's types, so it exists only then, and without it no statement reads a clock.
     */
    @BuildStep
    void statementTimer(Optional<MetricsCapabilityBuildItem> metrics, BuildProducer<AdditionalBeanBuildItem> beans) {
        if (metrics.isPresent() && metrics.get().metricsSupported(MetricsFactory.MICROMETER)) {
            beans.produce(AdditionalBeanBuildItem.builder().addBeanClasses(MicrometerStatementTimer.class)
                    .setDefaultScope(DotNames.SINGLETON).setUnremovable().build());
        }
    }

    @BuildStep
    RuntimeInitializedClassBuildItem bootIdAtRunTime() {
        return new RuntimeInitializedClassBuildItem(ProcessSessions.class.getName());
    }

    @BuildStep
    UnremovableBeanBuildItem repository() {
        // The application may use the kernel alone and never inject the repository it runs on.
        return UnremovableBeanBuildItem.beanTypes(JobRepository.class);
    }
}
