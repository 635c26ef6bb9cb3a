package io.durablebatch.runtime.schema;

import java.time.Duration;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

/**
 * The names of the tables the repository owns, all under one configured prefix, and the lease
 * terms its statements write. SQL templates spell a table as {@code {p}job_execution} and a new
 * lease expiry (the database clock plus the configured lease duration) as {@code {lease}};
 * {@link #sql} substitutes both once, when a store is built, and logs the result.
 */
public final class RepositoryTables {

    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9_]{0,19}");

    /** The log category of the repository's statements. */
    public static final String STATEMENTS = "io.durablebatch.sql";

    private static final Logger STATEMENT_LOG = Logger.getLogger(STATEMENTS);

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

    /**
     * The statement a template stands for, logged once at DEBUG in category {@value #STATEMENTS}: the
     * exact text that runs, to read, grep or paste into {@code EXPLAIN}.
     */
    public String sql(String template) {
        String sql = template.replace("{p}", prefix).replace("{lease}", leaseExpiry);
        STATEMENT_LOG.debugf("Repository statement: %s", sql);
        return sql;
    }
}
