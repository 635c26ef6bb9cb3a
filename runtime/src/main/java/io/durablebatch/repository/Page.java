package io.durablebatch.repository;

import java.util.List;
import java.util.Optional;

import io.durablebatch.Checks;

/**
 * One page of a keyset-paged listing, and the cursor of the page after it: empty on the last page.
 *
 * @param <T> the listed snapshots
 */
public record Page<T>(List<T> items, Optional<PageCursor> next) {

    public Page {
        items = List.copyOf(Checks.notNull(items, "items"));
        Checks.notNull(next, "next");
    }
}
