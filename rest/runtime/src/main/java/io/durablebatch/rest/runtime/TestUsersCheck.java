package io.durablebatch.rest.runtime;

import java.util.List;
import java.util.stream.StreamSupport;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigUtils;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Refuses to start a packaged application (not dev mode, not a test) whose active profile is
 * {@code test} or {@code dev} while it has users of the embedded realm: those are the users of a
 * test or dev configuration, with passwords that are in the sources. A jar built with
 * {@code -Dquarkus.profile=test} (the only way to switch the embedded realm on for tests alone, since
 * its {@code enabled} is fixed at build time) starts in that profile by default, so without this check
 * it would serve the API with known passwords.
 */
@Singleton
public class TestUsersCheck {

    private static final String EMBEDDED_USERS = "quarkus.security.users.embedded.users.";

    void check(@Observes @Priority(1) StartupEvent start) {
        refuseKnownUsers(LaunchMode.current(), ConfigUtils.getProfiles(), ConfigProvider.getConfig());
    }

    static void refuseKnownUsers(LaunchMode mode, List<String> profiles, Config config) {
        List<String> known = profiles.stream().filter(profile -> profile.equals("test") || profile.equals("dev")).toList();
        if (mode != LaunchMode.NORMAL || known.isEmpty()) {
            return;
        }
        List<String> users = StreamSupport.stream(config.getPropertyNames().spliterator(), false)
                .filter(name -> name.startsWith(EMBEDDED_USERS)).map(name -> name.substring(EMBEDDED_USERS.length()))
                .sorted().toList();
        if (!users.isEmpty()) {
            throw new ConfigurationException("this packaged application runs in the " + known + " profile with the "
                    + "embedded users " + users + ", whose passwords are in the sources: it refuses to start. Build it "
                    + "without -Dquarkus.profile=" + known.get(0) + " and give it real users (OIDC, or a users "
                    + "file of your own), or start it with -Dquarkus.profile=prod");
        }
    }
}
