package io.durablebatch.runtime.sql;

/**
 * One repository query in HQL over the repository's entities, known by its store and name as a
 * native {@link SqlStatement} is: Hibernate renders it (the table prefix comes from the mapping)
 * and maps its result.
 *
 * @param resultType the type of each result: an entity, a value, or {@code Integer} for a mutation
 *        (its row count)
 */
public record EntityQuery<T>(String owner, String name, String hql, Class<T> resultType) {

    /** Whether the query changes rows ({@code update versioned ...}, {@code insert ...}) rather than selects them. */
    public boolean isMutation() {
        String start = hql.stripLeading();
        return start.regionMatches(true, 0, "update", 0, 6) || start.regionMatches(true, 0, "insert", 0, 6);
    }

    @Override
    public String toString() {
        return owner + "." + name;
    }
}
