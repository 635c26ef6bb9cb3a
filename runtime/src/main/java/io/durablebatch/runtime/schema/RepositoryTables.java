package io.durablebatch.runtime.schema;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The names of the tables the repository owns, all under one configured prefix, and the lease
 * terms its statements write. SQL templates spell a table as {@code {p}job_execution} and a new
 * lease expiry (the database clock plus the configured lease duration) as {@code {lease}};
 * {@link #sql} substitutes both once, when a store is built.
 */
public final class RepositoryTables {

    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9_]{0,19}");

    private final String prefix;
    private final String leaseExpiry;

    public RepositoryTables(String prefix, Duration lease) {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("quarkus.durable-batch.schema.table-prefix must be lower-case letters, "
                    + "digits and underscores, starting with a letter, at most 20 characters; got '" + prefix + "'");
        }
        if (lease == null || lease.toMillis() < 1) {
            throw new IllegalArgumentException("quarkus.durable-batch.lease.duration must be positive, got " + lease);
        }
        this.prefix = prefix;
        // statement_timestamp(): the database clock when the statement began, whatever the
        // transaction's age, so a lease renewed late in a long chunk still lasts its full duration
        this.leaseExpiry = "statement_timestamp() + interval '" + lease.toMillis() + " milliseconds'";
    }

    public String prefix() {
        return prefix;
    }

    public String historyTable() {
        return prefix + "schema_history";
    }

    public String sql(String template) {
        return template.replace("{p}", prefix).replace("{lease}", leaseExpiry);
    }
}
