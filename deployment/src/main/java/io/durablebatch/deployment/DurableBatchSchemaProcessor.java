package io.durablebatch.deployment;

import java.util.List;

import io.durablebatch.runtime.repository.RepositoryRecorder;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.quarkus.agroal.spi.JdbcDataSourceSchemaReadyBuildItem;
import io.quarkus.arc.deployment.SyntheticBeansRuntimeInitBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.Consume;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.ServiceStartBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.narayana.jta.deployment.NarayanaInitBuildItem;

/** The repository's schema: its migration at runtime init, and its scripts in native images. */
class DurableBatchSchemaProcessor {

    /**
     * Migrates (or validates) the schema at runtime init, once the datasources and the transaction
     * manager are up, and says so to the steps that order themselves by it: the kernel's, and other
     * extensions' through {@link JdbcDataSourceSchemaReadyBuildItem}.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    @Consume(SyntheticBeansRuntimeInitBuildItem.class)
    @Consume(NarayanaInitBuildItem.class)
    ServiceStartBuildItem migrate(RepositoryRecorder recorder, RepositoryDataSourceBuildItem dataSource,
            BuildProducer<JdbcDataSourceSchemaReadyBuildItem> schemaReady,
            BuildProducer<RepositorySchemaReadyBuildItem> repositoryReady) {
        recorder.migrate();
        schemaReady.produce(new JdbcDataSourceSchemaReadyBuildItem(List.of(dataSource.name())));
        repositoryReady.produce(new RepositorySchemaReadyBuildItem());
        return new ServiceStartBuildItem(DurableBatchProcessor.FEATURE);
    }

    /** The scripts are listed, never scanned: native images must ship them explicitly. */
    @BuildStep
    void migrationResources(BuildProducer<NativeImageResourceBuildItem> resources) {
        resources.produce(new NativeImageResourceBuildItem(
                SchemaMigrations.SCRIPTS.stream().map(script -> SchemaMigrations.LOCATION + script).toList()));
    }
}
