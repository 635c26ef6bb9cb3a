package io.durablebatch.repository;

import io.durablebatch.Checks;

/**
 * An opaque position in a keyset-paged listing, as a page's {@link Page#next()} gives it: the next
 * page starts after it, however many rows were added or removed meanwhile. Only a cursor of the same
 * listing is accepted.
 */
public record PageCursor(String value) {

    public static final int MAX_LENGTH = 100;

    public PageCursor {
        Checks.token(value, "page.after", MAX_LENGTH);
    }

    public static PageCursor of(String value) {
        return new PageCursor(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
