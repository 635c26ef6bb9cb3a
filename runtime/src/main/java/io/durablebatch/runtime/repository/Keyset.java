package io.durablebatch.runtime.repository;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageCursor;
import io.durablebatch.repository.PageRequest;

/**
 * The keyset paging of one listing: its cursors name the listing and the key of the last row a page
 * held ({@code execution:1234}), so a cursor of another listing is refused rather than misread. A
 * page statement reads one row more than the page holds: that row only tells that a next page exists.
 *
 * @param listing the listing's name in its cursors
 * @param descending whether the listing runs from the highest key down (newest first)
 */
public record Keyset(String listing, boolean descending) {

    public static Keyset newestFirst(String listing) {
        return new Keyset(listing, true);
    }

    public static Keyset ascending(String listing) {
        return new Keyset(listing, false);
    }

    /** The key the page starts after: the cursor's, or the first key's neighbour when there is none. */
    public long after(PageRequest page) {
        return page.after().map(this::key).orElse(descending ? Long.MAX_VALUE : Long.MIN_VALUE);
    }

    /** How many rows a page statement reads. */
    public int limit(PageRequest page) {
        return page.size() + 1;
    }

    /** The page of {@code rows} (read with {@link #limit}), each row's key by {@code key}. */
    public <R, T> Page<T> page(List<R> rows, PageRequest page, ToLongFunction<R> key, Function<R, T> item) {
        int size = Math.min(rows.size(), page.size());
        List<T> items = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            items.add(item.apply(rows.get(i)));
        }
        Optional<PageCursor> next = rows.size() > page.size()
                ? Optional.of(PageCursor.of(listing + ":" + key.applyAsLong(rows.get(size - 1))))
                : Optional.empty();
        return new Page<>(items, next);
    }

    private long key(PageCursor cursor) {
        String value = cursor.value();
        int colon = value.indexOf(':');
        if (colon < 0 || !value.substring(0, colon).equals(listing)) {
            throw new IllegalArgumentException("page.after is not a cursor of the " + listing + " listing: '" + value
                    + "'");
        }
        try {
            return Long.parseLong(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("page.after is not a cursor of the " + listing + " listing: '" + value
                    + "'", e);
        }
    }
}
