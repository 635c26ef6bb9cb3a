package io.durablebatch.deployment.test;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A registry that keeps what it is given, for tests that read the kernel's meters: Quarkus adds every
 * {@link MeterRegistry} bean to its global composite registry.
 */
@Singleton
public class SimpleMeters {

    @Produces
    @Singleton
    SimpleMeterRegistry registry() {
        return new SimpleMeterRegistry();
    }

    /** The count of the counter with this name and these tags (name, value, ...); 0 if none was registered. */
    public static double count(MeterRegistry registry, String name, String... tags) {
        var counter = registry.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }
}
