package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The packaged demo started in the test profile (as a jar built with {@code -Dquarkus.profile=test}
 * starts) would serve the API with the test users' known passwords: it refuses to start instead.
 */
class DemoRefusesTestProfileIT {

    @Test
    void thePackagedDemoRefusesToStartInTheTestProfile() throws Exception {
        int exit = ChildApplication.runInitTask("test-profile-refused", Map.of("quarkus.profile", "test",
                "quarkus.init-and-exit", "false"), Duration.ofMinutes(2));
        String log = Files.readString(Path.of("target", "test-profile-refused.log"));
        assertNotEquals(0, exit, log);
        assertTrue(log.contains("refuses to start") && log.contains("[admin, operator, outsider, viewer]"), log);
    }
}
