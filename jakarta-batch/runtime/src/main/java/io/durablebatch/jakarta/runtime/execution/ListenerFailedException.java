package io.durablebatch.jakarta.runtime.execution;

/** A checked exception of a Jakarta step-level listener, which fails the step as it does. */
final class ListenerFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ListenerFailedException(String callback, String where, Exception cause) {
        super(callback + " of the listener of " + where + " failed: " + cause, cause);
    }
}
