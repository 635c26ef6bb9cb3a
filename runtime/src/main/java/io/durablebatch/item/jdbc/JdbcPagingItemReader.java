package io.durablebatch.item.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import javax.sql.DataSource;

import io.durablebatch.Checks;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.support.CheckpointFormat;

/**
 * Reads the rows of a query page by page with keyset pagination on a unique {@link SortKey}:
 *
 * <pre>
 * SELECT {select} FROM {from} WHERE ({where}) AND {key} &gt; ? ORDER BY {key} LIMIT {pageSize}
 * </pre>
 *
 * Never {@code OFFSET}: each page costs the same however deep it is, and rows inserted or deleted
 * behind the reader do not shift what it reads next. The checkpoint is the key of the last item
 * returned, so a restart runs the same query after that key.
 * <p>
 * Each page borrows a connection from the data source for one query; inside a chunk's JTA
 * transaction (an Agroal data source in Quarkus) that is the transaction's connection.
 */
public final class JdbcPagingItemReader<T> implements ItemReader<T> {

    /** The page size when none is configured. */
    public static final int DEFAULT_PAGE_SIZE = 500;

    private static final CheckpointFormat FORMAT = CheckpointFormat.JDBC_PAGING_READER;

    private final DataSource dataSource;
    private final SortKey sortKey;
    private final List<Object> parameters;
    private final int pageSize;
    private final RowMapper<T> mapper;
    private final String firstPageSql;
    private final String nextPageSql;
    private final String countSql;

    private final KeysetCursor<T, SQLException> cursor;
    private OptionalLong size = OptionalLong.empty();

    private JdbcPagingItemReader(Builder<T> builder) {
        this.dataSource = builder.dataSource;
        this.sortKey = builder.sortKey;
        this.parameters = builder.parameters;
        this.pageSize = builder.pageSize;
        this.mapper = builder.mapper;
        String key = sortKey.column();
        String filter = builder.where == null ? "" : "(" + builder.where + ")";
        String select = "SELECT " + builder.select + " FROM " + builder.from;
        String page = " ORDER BY " + key + " LIMIT " + pageSize;
        this.firstPageSql = select + (filter.isEmpty() ? "" : " WHERE " + filter) + page;
        this.nextPageSql = select + " WHERE " + (filter.isEmpty() ? "" : filter + " AND ") + key + " > ?" + page;
        this.countSql = builder.count
                ? "SELECT count(*) FROM " + builder.from + (filter.isEmpty() ? "" : " WHERE " + filter)
                : null;
        this.cursor = new KeysetCursor<>(FORMAT, sortKey, pageSize, this::fetchPage, firstPageSql);
    }

    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    /** Opens after the checkpoint's key; counts the rows first if {@link Builder#count} asked for it. */
    @Override
    public void open(Optional<Checkpoint> checkpoint) throws SQLException {
        cursor.open(checkpoint);
        if (countSql != null) {
            size = OptionalLong.of(count());
        }
    }

    @Override
    public T read() throws SQLException {
        return cursor.read();
    }

    @Override
    public Checkpoint checkpoint() {
        return cursor.checkpoint();
    }

    /** The number of rows the query had when the reader was opened, if {@link Builder#count} asked for it. */
    @Override
    public OptionalLong size() {
        return size;
    }

    @Override
    public void close() {
        cursor.close();
    }

    private void fetchPage(Object lastKey, KeysetCursor<T, SQLException> page) throws SQLException {
        String sql = lastKey == null ? firstPageSql : nextPageSql;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            int index = bindParameters(statement);
            if (lastKey != null) {
                sortKey.bind(statement, index, lastKey);
            }
            statement.setFetchSize(pageSize);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Object key = sortKey.read(rows);
                    T item = mapper.map(rows);
                    if (item == null) {
                        throw new IllegalStateException("the row mapper returned null for the row with "
                                + sortKey.column() + " " + key);
                    }
                    page.add(key, item);
                }
            }
        }
    }

    private long count() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(countSql)) {
            bindParameters(statement);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** Binds the where clause's parameters; returns the index of the next parameter. */
    private int bindParameters(PreparedStatement statement) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            statement.setObject(i + 1, parameters.get(i));
        }
        return parameters.size() + 1;
    }

    /**
     * Configures a {@link JdbcPagingItemReader}; {@link #dataSource}, {@link #select}, {@link #from},
     * {@link #sortKey} and {@link #mapper} are required.
     */
    public static final class Builder<T> {

        private DataSource dataSource;
        private String select;
        private String from;
        private String where;
        private List<Object> parameters = List.of();
        private SortKey sortKey;
        private int pageSize = DEFAULT_PAGE_SIZE;
        private RowMapper<T> mapper;
        private boolean count;

        private Builder() {
        }

        public Builder<T> dataSource(DataSource dataSource) {
            this.dataSource = Checks.notNull(dataSource, "dataSource");
            return this;
        }

        /** The select list, which must include the sort key's column, e.g. {@code "id, customer, amount"}. */
        public Builder<T> select(String select) {
            this.select = Checks.notBlank(select, "select");
            return this;
        }

        /** The table or join, e.g. {@code "orders o JOIN customers c ON c.id = o.customer_id"}. */
        public Builder<T> from(String from) {
            this.from = Checks.notBlank(from, "from");
            return this;
        }

        /** An optional condition with {@code ?} placeholders, bound in order to {@code parameters}. */
        public Builder<T> where(String where, Object... parameters) {
            this.where = Checks.notBlank(where, "where");
            Checks.notNull(parameters, "parameters");
            // a list that keeps nulls: a parameter may be SQL NULL
            this.parameters = Collections.unmodifiableList(new ArrayList<>(Arrays.asList(parameters)));
            return this;
        }

        public Builder<T> sortKey(SortKey sortKey) {
            this.sortKey = Checks.notNull(sortKey, "sortKey");
            return this;
        }

        /** Rows per query; {@value JdbcPagingItemReader#DEFAULT_PAGE_SIZE} by default. */
        public Builder<T> pageSize(int pageSize) {
            this.pageSize = (int) Checks.positive(pageSize, "pageSize");
            return this;
        }

        public Builder<T> mapper(RowMapper<T> mapper) {
            this.mapper = Checks.notNull(mapper, "mapper");
            return this;
        }

        /** Whether {@code open} counts the rows (one {@code count(*)} query) so {@code size()} is known. */
        public Builder<T> count(boolean count) {
            this.count = count;
            return this;
        }

        public JdbcPagingItemReader<T> build() {
            Checks.notNull(dataSource, "dataSource");
            Checks.notNull(select, "select");
            Checks.notNull(from, "from");
            Checks.notNull(sortKey, "sortKey");
            Checks.notNull(mapper, "mapper");
            return new JdbcPagingItemReader<>(this);
        }
    }
}
