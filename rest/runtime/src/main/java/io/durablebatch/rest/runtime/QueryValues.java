package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.durablebatch.execution.ExecutionStatus;

/** The values of query parameters that are not records of their own: instants and statuses. */
final class QueryValues {

    /** The earliest instant a filter may name. */
    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

    /** The latest instant a filter may name. */
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private QueryValues() {
    }

    static Instant instant(String text, String field) {
        if (text == null) {
            throw new IllegalArgumentException(field + " must be given, an ISO-8601 instant such as 2026-12-01T00:00:00Z");
        }
        Instant instant;
        try {
            instant = Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + " must be an ISO-8601 instant such as 2026-12-01T00:00:00Z, got '"
                    + text + "'");
        }
        // PostgreSQL's timestamps end in year 294276 (Instant's in year 1000000000): a filter the
        // database cannot compare is the caller's mistake, refused here rather than failing its statement.
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw new IllegalArgumentException(field + " must be between " + EARLIEST + " and " + LATEST + ", got '"
                    + text + "'");
        }
        return instant;
    }

    static Set<ExecutionStatus> statuses(List<String> names) {
        Set<ExecutionStatus> statuses = EnumSet.noneOf(ExecutionStatus.class);
        for (String name : names == null ? List.<String> of() : names) {
            try {
                statuses.add(ExecutionStatus.valueOf(name.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("status must be one of " + EnumSet.allOf(ExecutionStatus.class)
                        + ", got '" + name + "'");
            }
        }
        return statuses;
    }
}
