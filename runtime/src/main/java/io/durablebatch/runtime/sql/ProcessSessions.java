package io.durablebatch.runtime.sql;

import java.util.Optional;
import java.util.UUID;

/**
 * This process's mark on its repository sessions: a boot id drawn once per run (the suffix of its
 * owner token, {@code <node-id>/<boot id>}), carried at the head of each session's
 * {@code application_name}. When this process's lease runs out, another node ends the sessions so
 * marked that still hold a transaction: a frozen process cannot release its own locks.
 */
public final class ProcessSessions {

    /** The boot id of this run of the application. */
    public static final String BOOT_ID = UUID.randomUUID().toString().substring(0, 8);

    private static final String PREFIX = "durable-batch ";

    /** What heads the {@code application_name} of this process's sessions. */
    static final String MARK = PREFIX + BOOT_ID;

    private ProcessSessions() {
    }

    /** The {@code LIKE} pattern of the sessions of the process that holds {@code ownerToken}, if it names a boot id. */
    public static Optional<String> sessionsOf(String ownerToken) {
        int slash = ownerToken.lastIndexOf('/');
        String bootId = slash < 0 ? "" : ownerToken.substring(slash + 1);
        return bootId.matches("[0-9a-f]{8}") ? Optional.of(PREFIX + bootId + "%") : Optional.empty();
    }
}
