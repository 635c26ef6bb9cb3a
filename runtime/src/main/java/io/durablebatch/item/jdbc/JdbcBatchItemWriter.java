package io.durablebatch.item.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import io.durablebatch.Checks;
import io.durablebatch.item.ItemWriter;

/**
 * Writes a chunk with one JDBC batch: the statement is bound once per item ({@code addBatch}) and
 * sent with a single {@code executeBatch}, one round trip for the whole chunk. With the PostgreSQL
 * driver's {@code reWriteBatchedInserts=true} an {@code INSERT} batch becomes multi-row inserts.
 * <p>
 * The connection comes from the data source: in Quarkus, an Agroal data source hands out the
 * connection enlisted in the chunk's JTA transaction, so the rows commit with the step's progress.
 * The writer never commits or rolls back itself.
 */
public final class JdbcBatchItemWriter<T> implements ItemWriter<T> {

    private final DataSource dataSource;
    private final String sql;
    private final ItemStatementSetter<T> setter;
    private final boolean assertUpdates;

    private JdbcBatchItemWriter(Builder<T> builder) {
        this.dataSource = builder.dataSource;
        this.sql = builder.sql;
        this.setter = builder.setter;
        this.assertUpdates = builder.assertUpdates;
    }

    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    /**
     * Writes the items; with {@link Builder#assertUpdates} an item whose statement changed no row
     * fails the chunk with an {@link ItemNotWrittenException}.
     */
    @Override
    public void write(List<? extends T> items) throws SQLException {
        if (items.isEmpty()) {
            return;
        }
        int[] counts;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (T item : items) {
                setter.bind(statement, item);
                statement.addBatch();
            }
            counts = statement.executeBatch();
        }
        if (assertUpdates) {
            for (int i = 0; i < counts.length; i++) {
                // a rewritten batch reports SUCCESS_NO_INFO: the rows were written, their count is not known
                if (counts[i] == 0 || counts[i] == Statement.EXECUTE_FAILED) {
                    throw new ItemNotWrittenException(i, counts[i], sql);
                }
            }
        }
    }

    /**
     * Configures a {@link JdbcBatchItemWriter}; {@link #dataSource}, {@link #sql} and
     * {@link #setter} are required.
     */
    public static final class Builder<T> {

        private DataSource dataSource;
        private String sql;
        private ItemStatementSetter<T> setter;
        private boolean assertUpdates = true;

        private Builder() {
        }

        public Builder<T> dataSource(DataSource dataSource) {
            this.dataSource = Checks.notNull(dataSource, "dataSource");
            return this;
        }

        /** The statement run for each item, with {@code ?} placeholders. */
        public Builder<T> sql(String sql) {
            this.sql = Checks.notBlank(sql, "sql");
            return this;
        }

        public Builder<T> setter(ItemStatementSetter<T> setter) {
            this.setter = Checks.notNull(setter, "setter");
            return this;
        }

        /** Whether each item's statement must change at least one row; true by default. */
        public Builder<T> assertUpdates(boolean assertUpdates) {
            this.assertUpdates = assertUpdates;
            return this;
        }

        public JdbcBatchItemWriter<T> build() {
            Checks.notNull(dataSource, "dataSource");
            Checks.notNull(sql, "sql");
            Checks.notNull(setter, "setter");
            return new JdbcBatchItemWriter<>(this);
        }
    }
}
