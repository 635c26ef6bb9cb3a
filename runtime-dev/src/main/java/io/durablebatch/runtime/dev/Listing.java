package io.durablebatch.runtime.dev;

import java.util.List;

/**
 * One page of a Dev UI listing, and the cursor of the next page ({@code null} on the last one), to
 * pass back as {@code after}.
 */
public record Listing<T>(List<T> items, String next) {
}
