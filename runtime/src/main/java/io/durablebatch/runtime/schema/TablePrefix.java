package io.durablebatch.runtime.schema;

import java.util.regex.Pattern;

/** The prefix of the repository's table names ({@code quarkus.durable-batch.schema.table-prefix}). */
public final class TablePrefix {

    /** The prefix the entities' table names are written with, and the configuration's default. */
    public static final String DEFAULT = "dbatch_";

    private static final Pattern VALID = Pattern.compile("[a-z][a-z0-9_]{0,19}");

    private TablePrefix() {
    }

    /** {@code prefix}, if it is one: lower-case letters, digits and underscores, a letter first, at most 20. */
    public static String check(String prefix) {
        if (prefix == null || !VALID.matcher(prefix).matches()) {
            throw new IllegalArgumentException("quarkus.durable-batch.schema.table-prefix must be lower-case letters, "
                    + "digits and underscores, starting with a letter, at most 20 characters; got '" + prefix + "'");
        }
        return prefix;
    }

    /** {@code table} (written with the default prefix) under {@code prefix}. */
    public static String rename(String table, String prefix) {
        if (!table.startsWith(DEFAULT)) {
            throw new IllegalArgumentException("not a repository table: " + table);
        }
        return prefix + table.substring(DEFAULT.length());
    }
}
