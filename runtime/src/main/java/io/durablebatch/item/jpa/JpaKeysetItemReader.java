package io.durablebatch.item.jpa;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;

import io.durablebatch.Checks;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.ItemReader;
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
    private final SortKey sortKey;
    private final Map<String, Object> parameters;
    private final int pageSize;
    private final String firstPage;
    private final String nextPage;

    private final List<T> page = new ArrayList<>();
    private final List<Object> pageKeys = new ArrayList<>();
    private int next;
    private boolean lastPage;
    private Object lastKey;
    private boolean open;
    private Boolean entity;

    private JpaKeysetItemReader(Builder<T> builder) {
        this.entityManager = Checks.notNull(builder.entityManager, "entityManager");
        this.type = Checks.notNull(builder.type, "type");
        this.sortKey = Checks.notNull(builder.sortKey, "sortKey");
        this.parameters = Map.copyOf(builder.parameters);
        this.pageSize = builder.pageSize;
        String key = sortKey.column();
        String select = "select " + Checks.notNull(builder.select, "select") + ", " + key + " from "
                + Checks.notNull(builder.from, "from");
        String order = " order by " + key;
        this.firstPage = select + (builder.where == null ? "" : " where (" + builder.where + ")") + order;
        this.nextPage = select + " where " + (builder.where == null ? "" : "(" + builder.where + ") and ") + key
                + " > :" + LAST_KEY + order;
    }

    /** A reader of {@code type}; configure its query on the builder. */
    public static <T> Builder<T> builder(Class<T> type) {
        return new Builder<>(type);
    }

    /** Opens after the checkpoint's key. */
    @Override
    public void open(Optional<Checkpoint> checkpoint) {
        Checks.notNull(checkpoint, "checkpoint");
        lastKey = null;
        if (checkpoint.isPresent()) {
            byte[] payload = FORMAT.decode(checkpoint.get());
            try {
                lastKey = payload.length == 0 ? null : sortKey.decode(payload);
            } catch (IllegalArgumentException e) {
                throw FORMAT.refused(checkpoint.get(), e.getMessage());
            }
        }
        page.clear();
        pageKeys.clear();
        next = 0;
        lastPage = false;
        open = true;
    }

    @Override
    public T read() {
        requireOpen();
        if (next == page.size()) {
            if (lastPage) {
                return null;
            }
            fetchPage();
            if (page.isEmpty()) {
                return null;
            }
        }
        lastKey = pageKeys.get(next);
        return page.get(next++);
    }

    @Override
    public Checkpoint checkpoint() {
        requireOpen();
        return FORMAT.encode(lastKey == null ? new byte[0] : sortKey.encode(lastKey));
    }

    @Override
    public void close() {
        open = false;
        page.clear();
        pageKeys.clear();
    }

    private void fetchPage() {
        page.clear();
        pageKeys.clear();
        next = 0;
        TypedQuery<Object[]> query = entityManager.createQuery(lastKey == null ? firstPage : nextPage, Object[].class)
                .setMaxResults(pageSize).setHint(READ_ONLY, true);
        parameters.forEach(query::setParameter);
        if (lastKey != null) {
            query.setParameter(LAST_KEY, lastKey);
        }
        for (Object[] row : query.getResultList()) {
            Object key = row[1];
            if (key == null) {
                throw new IllegalStateException("sort key " + sortKey.column() + " is null: it must be unique and not null");
            }
            if (key.equals(pageKeys.isEmpty() ? lastKey : pageKeys.get(pageKeys.size() - 1))) {
                // equal keys sort next to each other: a page boundary between them would lose entities
                throw new IllegalStateException("sort key " + sortKey.column() + " is not unique: two have " + key);
            }
            T item = type.cast(row[0]);
            if (isEntity()) {
                // returned detached: the persistence context never grows with the input, and a change
                // reaches the database only through a merge, never half of it through dirty checking
                entityManager.detach(item);
            }
            page.add(item);
            pageKeys.add(key);
        }
        lastPage = page.size() < pageSize;
    }

    private boolean isEntity() {
        if (entity == null) {
            entity = entityManager.getMetamodel().getEntities().stream().anyMatch(e -> e.getJavaType() == type);
        }
        return entity;
    }

    private void requireOpen() {
        if (!open) {
            throw new IllegalStateException("the reader of " + firstPage + " is not open");
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
