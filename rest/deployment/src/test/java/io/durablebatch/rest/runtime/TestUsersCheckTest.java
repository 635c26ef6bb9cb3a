package io.durablebatch.rest.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * A packaged application in the test or dev profile with embedded users refuses to start; in the
 * prod profile, in dev mode, in tests, or without embedded users it starts.
 */
class TestUsersCheckTest {

    private static final Config USERS = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(
            Map.of("quarkus.security.users.embedded.users.admin", "admin-secret"), "test-users", 100)).build();
    private static final Config NO_USERS = new SmallRyeConfigBuilder().build();

    @Test
    void aPackagedApplicationInTheTestOrDevProfileWithEmbeddedUsersRefusesToStart() {
        for (String profile : List.of("test", "dev")) {
            ConfigurationException refusal = assertThrows(ConfigurationException.class,
                    () -> TestUsersCheck.refuseKnownUsers(LaunchMode.NORMAL, List.of(profile), USERS));
            assertTrue(refusal.getMessage().contains("[admin]") && refusal.getMessage().contains(profile),
                    refusal.getMessage());
        }
    }

    @Test
    void otherwiseItStarts() {
        assertDoesNotThrow(() -> TestUsersCheck.refuseKnownUsers(LaunchMode.NORMAL, List.of("prod"), USERS));
        assertDoesNotThrow(() -> TestUsersCheck.refuseKnownUsers(LaunchMode.TEST, List.of("test"), USERS));
        assertDoesNotThrow(() -> TestUsersCheck.refuseKnownUsers(LaunchMode.DEVELOPMENT, List.of("dev"), USERS));
        assertDoesNotThrow(() -> TestUsersCheck.refuseKnownUsers(LaunchMode.NORMAL, List.of("test"), NO_USERS));
    }
}
