package io.durablebatch.deployment;

import io.durablebatch.runtime.schema.SchemaMigrations;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;

/** Ships the repository's migration scripts in native images; they are listed, never scanned. */
class DurableBatchSchemaProcessor {

    @BuildStep
    void migrationResources(BuildProducer<NativeImageResourceBuildItem> resources) {
        resources.produce(new NativeImageResourceBuildItem(
                SchemaMigrations.SCRIPTS.stream().map(script -> SchemaMigrations.LOCATION + script).toList()));
    }
}
