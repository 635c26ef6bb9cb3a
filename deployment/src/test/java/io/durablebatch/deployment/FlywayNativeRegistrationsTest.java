package io.durablebatch.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;

/**
 * What a native image needs of Flyway now that the runtime does without quarkus-flyway: each
 * registration names something that exists in the Flyway this build ships, so a Flyway upgrade that
 * moves one fails here rather than in a native image nobody built. (The build steps themselves run in
 * CI's native sources build of the demo application, which has no quarkus-flyway.)
 */
class FlywayNativeRegistrationsTest {

    private final DurableBatchFlywayNativeProcessor processor = new DurableBatchFlywayNativeProcessor();

    @Test
    void flywaysPluginsAreServiceProvidersWithThePostgreSqlDatabaseAmongThem() {
        List<String> providers = processor.plugins().providers();
        assertTrue(providers.contains("org.flywaydb.database.postgresql.PostgreSQLDatabaseType"), providers::toString);
        assertTrue(providers.contains("org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension"),
                providers::toString);
        assertTrue(providers.contains("org.flywaydb.core.internal.resource.CoreResourceTypeProvider"), providers::toString);
    }

    @Test
    void theRuntimeInitialisedClassAndTheVersionResourceExist() throws ClassNotFoundException {
        assertEquals(DurableBatchFlywayNativeProcessor.INSERT_ROW_LOCK, processor.insertRowLock().getClassName());
        Class.forName(DurableBatchFlywayNativeProcessor.INSERT_ROW_LOCK, false, getClass().getClassLoader());
        assertEquals(List.of(DurableBatchFlywayNativeProcessor.VERSION_RESOURCE), processor.versionResource().getResources());
        assertNotNull(getClass().getClassLoader().getResource(DurableBatchFlywayNativeProcessor.VERSION_RESOURCE));
    }

    @Test
    void configurationExtensionsAreReflectiveWithTheirModels() throws ClassNotFoundException {
        List<ReflectiveClassBuildItem> items = new ArrayList<>();
        processor.configurationExtensions(items::add);
        List<String> classes = items.stream().flatMap(item -> item.getClassNames().stream()).toList();
        assertTrue(classes.contains("org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension"), classes::toString);
        assertTrue(classes.contains("org.flywaydb.database.postgresql.TransactionalModel"), classes::toString);
        assertTrue(items.stream().allMatch(item -> item.isFields() && item.isMethods() && item.isConstructors()));
        // plugins that are no configuration extensions need no reflection
        assertTrue(!classes.contains("org.flywaydb.database.postgresql.PostgreSQLDatabaseType"), classes::toString);
    }
}
