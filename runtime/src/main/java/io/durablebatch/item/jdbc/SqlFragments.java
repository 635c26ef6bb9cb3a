package io.durablebatch.item.jdbc;

import io.durablebatch.Checks;

/** Checks of the SQL text a reader or writer is configured with. */
final class SqlFragments {

    private SqlFragments() {
    }

    /** A non-blank SQL fragment; line breaks are fine (text blocks). */
    static String require(String sql, String field) {
        Checks.notNull(sql, field);
        if (sql.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
        return sql.strip();
    }
}
