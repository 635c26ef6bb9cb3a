package io.durablebatch.deployment;

import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.flywaydb.core.extensibility.ConfigurationExtension;
import org.flywaydb.core.extensibility.Plugin;

import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.RuntimeReinitializedClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ServiceProviderBuildItem;
import io.quarkus.deployment.pkg.steps.NativeOrNativeSourcesBuild;

/**
 * What Flyway itself needs in a native image. The runtime depends on Flyway, not on quarkus-flyway
 * (whose start builds a Flyway for the default datasource whatever the application migrates), so it
 * registers Flyway's plugins, configuration extensions, version resource and per-run lock token
 * itself. An application that has quarkus-flyway registers the same again, which is harmless.
 * Scanning needs nothing: the repository lists its scripts ({@code SchemaMigrations}).
 */
@BuildSteps(onlyIf = NativeOrNativeSourcesBuild.class)
class DurableBatchFlywayNativeProcessor {

    /** The class whose static seed must not be frozen into the image: every run needs its own lock tokens. */
    static final String INSERT_ROW_LOCK = "org.flywaydb.core.internal.database.InsertRowLock";
    /**
     * Read by every Flyway start, to log its version. (quarkus-flyway 3.33 registers
     * {@code org/flywaydb/database/version.txt}, which Flyway 12 no longer has.)
     */
    static final String VERSION_RESOURCE = "org/flywaydb/core/internal/version.txt";

    /** Flyway finds its database types, resolvers and extensions through {@link java.util.ServiceLoader}. */
    @BuildStep
    ServiceProviderBuildItem plugins() {
        return ServiceProviderBuildItem.allProvidersFromClassPath(Plugin.class.getName());
    }

    @BuildStep
    RuntimeReinitializedClassBuildItem insertRowLock() {
        return new RuntimeReinitializedClassBuildItem(INSERT_ROW_LOCK);
    }

    @BuildStep
    NativeImageResourceBuildItem versionResource() {
        return new NativeImageResourceBuildItem(VERSION_RESOURCE);
    }

    /**
     * Flyway copies its configuration extensions (the PostgreSQL one holds the transactional-lock
     * setting) by reflection on their properties and on the nested {@code *Model} types they hold.
     */
    @BuildStep
    void configurationExtensions(BuildProducer<ReflectiveClassBuildItem> reflection) throws ClassNotFoundException {
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        for (String provider : plugins().providers()) {
            Class<?> plugin = Class.forName(provider, false, classLoader);
            if (ConfigurationExtension.class.isAssignableFrom(plugin)) {
                reflection.produce(ReflectiveClassBuildItem.builder(withModels(plugin).toArray(Class<?>[]::new))
                        .reason(getClass().getName()).constructors().methods().fields().build());
            }
        }
    }

    /** The extension and the {@code *Model} types reachable through its fields. */
    static Set<Class<?>> withModels(Class<?> extension) {
        Set<Class<?>> classes = new LinkedHashSet<>();
        Deque<Class<?>> pending = new ArrayDeque<>(List.of(extension));
        while (!pending.isEmpty()) {
            Class<?> type = pending.pop();
            if (classes.add(type)) {
                for (Field field : type.getDeclaredFields()) {
                    if (field.getType().getSimpleName().endsWith("Model")) {
                        pending.push(field.getType());
                    }
                }
            }
        }
        return classes;
    }
}
