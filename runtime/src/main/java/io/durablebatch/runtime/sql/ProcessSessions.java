package io.durablebatch.runtime.sql;

import java.util.Optional;
import java.util.UUID;

import jakarta.inject.Singleton;

/**
 * This process's mark on the repository sessions its batch work uses: a boot id drawn when the bean
 * is created, at run time (a static field would be drawn once at build time in a native image and
 * baked into every replica), the suffix of its owner token ({@code <node-id>/<boot id>}), carried at
 * the head of the session's {@code application_name} while a kernel thread ({@link BatchThread})
 * holds it. When this process's lease runs out, another node ends the sessions so marked that still
 * hold a transaction: a frozen process cannot release its own locks. The application's own
 * sessions, which run no batch work, never carry the mark.
 */
@Singleton
public class ProcessSessions {

    private static final String PREFIX = "durable-batch ";
    /** PostgreSQL keeps the first 63 bytes of an {@code application_name}. */
    private static final int NAME_LENGTH = 63;

    private final String bootId = UUID.randomUUID().toString().substring(0, 8);
    private final String mark = PREFIX + bootId;

    /** The boot id of this run of the application. */
    public String bootId() {
        return bootId;
    }

    /** The {@code application_name} of a session while batch work uses it: the mark ahead of the application's name. */
    String marked(String applicationName) {
        String name = applicationName.isEmpty() ? mark : mark + " " + applicationName;
        return name.length() > NAME_LENGTH ? name.substring(0, NAME_LENGTH) : name;
    }

    /** The application's own name of a session, without this process's mark. */
    String unmarked(String applicationName) {
        if (!applicationName.startsWith(mark)) {
            return applicationName;
        }
        return applicationName.length() > mark.length() ? applicationName.substring(mark.length() + 1) : "";
    }

    /** The {@code LIKE} pattern of the sessions of the process that holds {@code ownerToken}, if it names a boot id. */
    public static Optional<String> sessionsOf(String ownerToken) {
        return bootIdOf(ownerToken).map(bootId -> PREFIX + bootId + "%");
    }

    /** The boot id an owner token names, if it names one (a process of an older version does not). */
    public static Optional<String> bootIdOf(String ownerToken) {
        int slash = ownerToken.lastIndexOf('/');
        String bootId = slash < 0 ? "" : ownerToken.substring(slash + 1);
        return bootId.matches("[0-9a-f]{8}") ? Optional.of(bootId) : Optional.empty();
    }
}
