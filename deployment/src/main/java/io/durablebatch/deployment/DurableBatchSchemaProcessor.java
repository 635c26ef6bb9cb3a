package io.durablebatch.deployment;

import java.util.Map;

import io.durablebatch.runtime.repository.RepositoryRecorder;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.quarkus.agroal.spi.JdbcDataSourceSchemaReadyBuildItem;
import io.quarkus.arc.deployment.SyntheticBeansRuntimeInitBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.Consume;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.ApplicationInfoBuildItem;
import io.quarkus.deployment.builditem.InitTaskBuildItem;
import io.quarkus.deployment.builditem.InitTaskCompletedBuildItem;
import io.quarkus.deployment.builditem.ServiceStartBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.hibernate.orm.deployment.PersistenceProviderSetUpBuildItem;
import io.quarkus.narayana.jta.deployment.NarayanaInitBuildItem;

/** The repository's schema: its migration at runtime init, and its scripts in native images. */
class DurableBatchSchemaProcessor {

    /** {@code quarkus.durable-batch.schema.migrate-at-start} as an environment variable. */
    static final String MIGRATE_AT_START = "QUARKUS_DURABLE_BATCH_SCHEMA_MIGRATE_AT_START";

    /**
     * Migrates (or validates) the schema at runtime init, once the datasources and the transaction
     * manager are up and the application's own migrations (Flyway, Liquibase: whatever says its
     * datasource schema is ready) have run: theirs refuse a schema that holds tables but none of their
     * history, ours starts its own history beside theirs. Hibernate ORM starts after it, so that its
     * validation sees the repository's tables; the kernel's steps order themselves by {@link RepositorySchemaReadyBuildItem}.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    @Consume(SyntheticBeansRuntimeInitBuildItem.class)
    @Consume(NarayanaInitBuildItem.class)
    @Consume(JdbcDataSourceSchemaReadyBuildItem.class)
    ServiceStartBuildItem migrate(RepositoryRecorder recorder,
            BuildProducer<PersistenceProviderSetUpBuildItem> hibernateMayStart,
            BuildProducer<RepositorySchemaReadyBuildItem> repositoryReady,
            BuildProducer<InitTaskCompletedBuildItem> initTaskCompleted) {
        // computed here so that a start on a current schema reads none of the scripts
        recorder.migrate(SchemaMigrations.checksums(Thread.currentThread().getContextClassLoader()));
        hibernateMayStart.produce(new PersistenceProviderSetUpBuildItem());
        repositoryReady.produce(new RepositorySchemaReadyBuildItem());
        initTaskCompleted.produce(new InitTaskCompletedBuildItem(DurableBatchProcessor.FEATURE));
        return new ServiceStartBuildItem(DurableBatchProcessor.FEATURE);
    }

    /**
     * The migration as an init task (a Kubernetes Job the deployment tools generate), so that replicas
     * need not all migrate: the task migrates and exits; the application only validates the schema.
     */
    @BuildStep
    InitTaskBuildItem migrationInitTask(ApplicationInfoBuildItem application) {
        return InitTaskBuildItem.create()
                .withName(application.getName() + "-" + DurableBatchProcessor.FEATURE + "-init")
                .withTaskEnvVars(Map.of("QUARKUS_INIT_AND_EXIT", "true", MIGRATE_AT_START, "true"))
                .withAppEnvVars(Map.of(MIGRATE_AT_START, "false"))
                .withSharedEnvironment(true)
                .withSharedFilesystem(true);
    }

    /** The scripts are listed, never scanned: native images must ship them explicitly. */
    @BuildStep
    void migrationResources(BuildProducer<NativeImageResourceBuildItem> resources) {
        resources.produce(new NativeImageResourceBuildItem(
                SchemaMigrations.SCRIPTS.stream().map(script -> SchemaMigrations.LOCATION + script).toList()));
    }
}
