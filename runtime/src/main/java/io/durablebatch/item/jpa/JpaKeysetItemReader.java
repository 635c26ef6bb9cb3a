package io.durablebatch.item.jpa;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;

import io.durablebatch.Checks;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.jdbc.KeysetCursor;
import io.durablebatch.item.jdbc.SortKey;
import io.durablebatch.item.support.CheckpointFormat;

/**
 * Reads entities (a Panache entity, an entity of a {@code PanacheRepository}, any Hibernate entity)
 * page by page with keyset pagination on a unique attribute:
 *
 * <pre>
 * select {select} from {from} where ({where}) and {key} &gt; :lastKey order by {key}   (at most pageSize)
 * </pre>
 *
 * Never an offset: each page costs the same however deep it is, and rows inserted or deleted behind
 * the reader do not shift what it reads next. The checkpoint is the key of the last entity returned,
 * so a restart runs the same query after that key.
 * <p>
 * Memory stays bounded by one page: entities are loaded read-only and returned detached, so the
 * persistence context of a long transaction does not grow with the input. Change them through a
 * writer ({@link JpaItemWriter#merging}, which loads each one again and updates it), not by dirty
 * checking, which never sees a detached entity.
 * The entity manager must join the chunk's transaction: in Quarkus, inject it (it is
 * transaction-scoped) and pass it here.
 */
public final class JpaKeysetItemReader<T> implements ItemReader<T> {

    /** The page size when none is configured. */
    public static final int DEFAULT_PAGE_SIZE = 500;

    private static final CheckpointFormat FORMAT = CheckpointFormat.JPA_KEYSET_READER;
    private static final String LAST_KEY = "durableBatchLastKey";
    private static final String READ_ONLY = "org.hibernate.readOnly";

    private final EntityManager entityManager;
    private final Class<T> type;
    private final Map<String, Object> parameters;
    private final int pageSize;
    private final String firstPage;
    private final String nextPage;

    private final KeysetCursor<T, RuntimeException> cursor;
    // whether items are entities (a projection returns values); known at the first page, because a
    // transaction-scoped entity manager answers only inside a transaction
    private Boolean entity;

    private JpaKeysetItemReader(Builder<T> builder) {
        this.entityManager = Checks.notNull(builder.entityManager, "entityManager");
        this.type = Checks.notNull(builder.type, "type");
        SortKey sortKey = Checks.notNull(builder.sortKey, "sortKey");
        this.parameters = Map.copyOf(builder.parameters);
        this.pageSize = builder.pageSize;
        String key = sortKey.column();
        String select = "select " + Checks.notNull(builder.select, "select") + ", " + key + " from "
                + Checks.notNull(builder.from, "from");
        String order = " order by " + key;
        this.firstPage = select + (builder.where == null ? "" : " where (" + builder.where + ")") + order;
        this.nextPage = select + " where " + (builder.where == null ? "" : "(" + builder.where + ") and ") + key
                + " > :" + LAST_KEY + order;
        this.cursor = new KeysetCursor<>(FORMAT, sortKey, pageSize, this::fetchPage, firstPage);
    }

    /** A reader of {@code type}; configure its query on the builder. */
    public static <T> Builder<T> builder(Class<T> type) {
        return new Builder<>(type);
    }

    /** Opens after the checkpoint's key. */
    @Override
    public void open(Optional<Checkpoint> checkpoint) {
        cursor.open(checkpoint);
    }

    @Override
    public T read() {
        return cursor.read();
    }

    @Override
    public Checkpoint checkpoint() {
        return cursor.checkpoint();
    }

    @Override
    public void close() {
        cursor.close();
    }

    private void fetchPage(Object lastKey, KeysetCursor<T, RuntimeException> page) {
        TypedQuery<Object[]> query = entityManager.createQuery(lastKey == null ? firstPage : nextPage, Object[].class)
                .setMaxResults(pageSize).setHint(READ_ONLY, true);
        parameters.forEach(query::setParameter);
        if (lastKey != null) {
            query.setParameter(LAST_KEY, lastKey);
        }
        if (entity == null) {
            entity = entityManager.getMetamodel().getEntities().stream().anyMatch(e -> e.getJavaType() == type);
        }
        for (Object[] row : query.getResultList()) {
            T item = type.cast(row[0]);
            if (entity) {
                // returned detached: the persistence context never grows with the input, and a change
                // reaches the database only through a merge, never half of it through dirty checking
                entityManager.detach(item);
            }
            page.add(row[1], item);
        }
    }

    /**
     * Configures a {@link JpaKeysetItemReader}; {@link #entityManager}, {@link #select}, {@link #from}
     * and {@link #sortKey} are required.
     */
    public static final class Builder<T> {

        private final Class<T> type;
        private EntityManager entityManager;
        private String select;
        private String from;
        private String where;
        private final Map<String, Object> parameters = new LinkedHashMap<>();
        private SortKey sortKey;
        private int pageSize = DEFAULT_PAGE_SIZE;

        private Builder(Class<T> type) {
            this.type = Checks.notNull(type, "type");
        }

        public Builder<T> entityManager(EntityManager entityManager) {
            this.entityManager = Checks.notNull(entityManager, "entityManager");
            return this;
        }

        /** What each item is, an entity alias or a constructor expression, e.g. {@code "o"}. */
        public Builder<T> select(String select) {
            this.select = Checks.notBlank(select, "select");
            return this;
        }

        /** The entity and its alias, e.g. {@code "Order o"}, or a join. */
        public Builder<T> from(String from) {
            this.from = Checks.notBlank(from, "from");
            return this;
        }

        /** An optional condition with named parameters, e.g. {@code "o.placedOn = :day"}. */
        public Builder<T> where(String where) {
            this.where = Checks.notBlank(where, "where");
            return this;
        }

        /** The value of a named parameter of the condition. */
        public Builder<T> parameter(String name, Object value) {
            Checks.notNull(name, "parameter name");
            if (name.equals(LAST_KEY)) {
                throw new IllegalArgumentException("the parameter name " + LAST_KEY + " is the reader's own");
            }
            parameters.put(name, Checks.notNull(value, "parameter " + name));
            return this;
        }

        /** The unique, non-null attribute the pages are ordered by, e.g. {@code SortKey.longKey("o.id")}. */
        public Builder<T> sortKey(SortKey sortKey) {
            this.sortKey = Checks.notNull(sortKey, "sortKey");
            return this;
        }

        /** Entities per query; {@value JpaKeysetItemReader#DEFAULT_PAGE_SIZE} by default. */
        public Builder<T> pageSize(int pageSize) {
            this.pageSize = (int) Checks.positive(pageSize, "pageSize");
            return this;
        }

        public JpaKeysetItemReader<T> build() {
            return new JpaKeysetItemReader<>(this);
        }
    }
}
