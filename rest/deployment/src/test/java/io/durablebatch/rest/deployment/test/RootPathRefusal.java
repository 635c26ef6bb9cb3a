package io.durablebatch.rest.deployment.test;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.Consumer;

import io.quarkus.runtime.configuration.ConfigurationException;

/** What a build refused for its root path must show: a configuration error naming the property and the value. */
final class RootPathRefusal {

    private RootPathRefusal() {
    }

    static Consumer<Throwable> of(String value) {
        return e -> {
            Throwable cause = e;
            while (cause != null && !(cause instanceof ConfigurationException)) {
                cause = cause.getCause();
            }
            if (cause == null) {
                fail("no ConfigurationException in " + e);
            }
            assertTrue(cause.getMessage().contains("quarkus.durable-batch.rest.root-path"), cause.getMessage());
            assertTrue(cause.getMessage().contains(value), cause.getMessage());
        };
    }
}
