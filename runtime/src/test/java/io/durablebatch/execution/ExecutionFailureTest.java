package io.durablebatch.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;

/** A failure's message says why: its causes, and what a failed commit suppressed. */
class ExecutionFailureTest {

    @Test
    void aFailedCommitNamesWhatItSuppressed() {
        // as the transaction manager reports a commit that could not complete: the reason is suppressed
        IllegalStateException commit = new IllegalStateException("Could not commit transaction.");
        commit.addSuppressed(new SQLException("FATAL: terminating connection due to administrator command", "57P01"));
        assertEquals(new ExecutionFailure("java.lang.IllegalStateException", "Could not commit transaction.; after "
                + "java.sql.SQLException: FATAL: terminating connection due to administrator command"),
                ExecutionFailure.of(commit));
    }

    @Test
    void causesComeFirstAndNothingIsSaidTwice() {
        SQLException lost = new SQLException("I/O error");
        RuntimeException failure = new RuntimeException("chunk failed", lost);
        failure.addSuppressed(lost);
        assertEquals("chunk failed; caused by java.sql.SQLException: I/O error", ExecutionFailure.of(failure).message());
    }
}
