package io.durablebatch.runtime.schema;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * The names of the tables the repository owns, all under one configured prefix, and the lease
 * terms its statements write. SQL templates spell a table as {@code {p}job_execution} and a new
 * lease expiry (the database clock plus the configured lease duration) as {@code {lease}};
 * {@link #statement} substitutes both once, when a store is built, and logs the result.
 */
public final class RepositoryTables {

    private static final Pattern TOKEN = Pattern.compile("\\{\\w+}");

    /** The log category of the repository's statements. */
    public static final String STATEMENTS = "io.durablebatch.sql";

    private static final Logger STATEMENT_LOG = Logger.getLogger(STATEMENTS);

    private final String prefix;
    private final String leaseExpiry;
    private final Queue<SqlStatement> statements = new ConcurrentLinkedQueue<>();
    private final Queue<EntityQuery<?>> queries = new ConcurrentLinkedQueue<>();

    public RepositoryTables(String prefix, Duration lease) {
        TablePrefix.check(prefix);
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
     * The statement {@code template} stands for, as {@code name} of the store that calls this, its
     * tables and lease terms substituted and its named placeholders parsed; logged once at DEBUG in
     * category {@value #STATEMENTS} and kept for the statement catalogue.
     */
    public SqlStatement statement(String name, String template) {
        return build(caller(), name, template, Map.of());
    }

    /**
     * As {@link #statement(String, String)}, with each {@code {fragment}} of the template (a column
     * list, a condition several statements share) replaced by its text first.
     */
    public SqlStatement statement(String name, String template, Map<String, String> fragments) {
        return build(caller(), name, template, fragments);
    }

    /**
     * The HQL query {@code hql} over the repository's entities, as {@code name} of the store that
     * calls this, each result a {@code resultType}; kept for the statement catalogue.
     */
    public <T> EntityQuery<T> query(String name, Class<T> resultType, String hql) {
        return register(new EntityQuery<>(caller(), name, hql, resultType));
    }

    /** The HQL mutation {@code hql} ({@code update versioned ...}): its result is the rows it changed. */
    public EntityQuery<Integer> mutation(String name, String hql) {
        return register(new EntityQuery<>(caller(), name, hql, Integer.class));
    }

    private <T> EntityQuery<T> register(EntityQuery<T> query) {
        STATEMENT_LOG.debugf("Repository entity query %s:%n%s", query, query.hql());
        queries.add(query);
        return query;
    }

    /** Every entity query built so far, in the order the stores built them. */
    public List<EntityQuery<?>> queries() {
        return List.copyOf(queries);
    }

    private static String caller() {
        // two frames up: the store that called one of the public methods
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .walk(frames -> frames.skip(2).findFirst()).orElseThrow().getDeclaringClass().getSimpleName();
    }

    private SqlStatement build(String owner, String name, String template, Map<String, String> fragments) {
        String text = template;
        for (Map.Entry<String, String> fragment : fragments.entrySet()) {
            text = text.replace("{" + fragment.getKey() + "}", fragment.getValue());
        }
        text = substitute(text);
        Matcher unknown = TOKEN.matcher(text);
        if (unknown.find()) {
            throw new IllegalArgumentException(owner + "." + name + ": no fragment for " + unknown.group());
        }
        SqlStatement statement = SqlStatement.parse(owner, name, text);
        STATEMENT_LOG.debugf("Repository statement %s:%n%s", statement, statement.text());
        statements.add(statement);
        return statement;
    }

    /** Every statement built so far, in the order the stores built them: the statement catalogue. */
    public List<SqlStatement> statements() {
        return List.copyOf(statements);
    }

    /**
     * {@code template} with its tables and lease terms filled in, not logged nor catalogued: for SQL
     * that runs outside the repository, in tests and benchmarks.
     */
    public String substitute(String template) {
        return template.replace("{p}", prefix).replace("{lease}", leaseExpiry);
    }
}
