package io.durablebatch.repository;

import java.util.Optional;

import io.durablebatch.Checks;

/**
 * Which page of a listing to read: the first one, or the one after a cursor a previous page gave,
 * with at most {@code size} items.
 */
public record PageRequest(Optional<PageCursor> after, int size) {

    /** The most items one page holds: a page is one bounded statement. */
    public static final int MAX_SIZE = 500;

    public PageRequest {
        Checks.notNull(after, "page.after");
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("page.size must be between 1 and " + MAX_SIZE + ", got " + size);
        }
    }

    public static PageRequest first(int size) {
        return new PageRequest(Optional.empty(), size);
    }

    public static PageRequest after(PageCursor cursor, int size) {
        return new PageRequest(Optional.of(Checks.notNull(cursor, "page.after")), size);
    }
}
