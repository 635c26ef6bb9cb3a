package io.durablebatch.repository.flow;

/**
 * How many times one flow node may start across every execution of its job instance. Entering
 * STARTING consumes one start, whether the attempt then completes or fails.
 */
public record StartLimit(int value) {

    /** No practical limit, as for a node that declares none. */
    public static final StartLimit UNLIMITED = new StartLimit(Integer.MAX_VALUE);

    public StartLimit {
        if (value <= 0) {
            throw new IllegalArgumentException("startLimit must be positive, got " + value);
        }
    }

    public static StartLimit of(int value) {
        return new StartLimit(value);
    }

    /** Whether a node that already consumed {@code startsConsumed} starts may start once more. */
    public boolean allowsStartAfter(int startsConsumed) {
        return startsConsumed < value;
    }

    @Override
    public String toString() {
        return value == Integer.MAX_VALUE ? "unlimited" : Integer.toString(value);
    }
}
