package io.durablebatch.deployment.test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.function.Executable;

/** Asserts that a value type refuses a bad input with a message naming the field. */
public final class InvalidValues {

    private InvalidValues() {
    }

    public static void assertInvalid(String messageStart, Executable construction) {
        IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class, construction);
        assertTrue(refusal.getMessage().startsWith(messageStart), refusal.getMessage());
    }
}
