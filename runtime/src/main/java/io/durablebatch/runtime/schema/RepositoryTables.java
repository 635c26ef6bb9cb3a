package io.durablebatch.runtime.schema;

import java.util.regex.Pattern;

/**
 * The names of the tables the repository owns, all under one configured prefix. SQL templates spell
 * a table as {@code {p}job_execution}; {@link #sql} substitutes the prefix once, when a store is built.
 */
public final class RepositoryTables {

    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9_]{0,19}");

    private final String prefix;

    public RepositoryTables(String prefix) {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("quarkus.durable-batch.schema.table-prefix must be lower-case letters, "
                    + "digits and underscores, starting with a letter, at most 20 characters; got '" + prefix + "'");
        }
        this.prefix = prefix;
    }

    public String prefix() {
        return prefix;
    }

    public String historyTable() {
        return prefix + "schema_history";
    }

    public String sql(String template) {
        return template.replace("{p}", prefix);
    }
}
