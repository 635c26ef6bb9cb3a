package io.durablebatch.item.jdbc;

/**
 * An item whose statement changed no row (an UPDATE that matched nothing, typically), reported by a
 * {@link JdbcBatchItemWriter} that asserts its update counts. The chunk's transaction rolls back.
 */
public final class ItemNotWrittenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int itemIndex;
    private final String sql;

    public ItemNotWrittenException(int itemIndex, int updateCount, String sql) {
        super("item " + (itemIndex + 1) + " of the chunk " + (updateCount == 0 ? "changed no row"
                : "failed (update count " + updateCount + ")") + ": " + sql);
        this.itemIndex = itemIndex;
        this.sql = sql;
    }

    /** The item's position in the chunk, counting from 0. */
    public int itemIndex() {
        return itemIndex;
    }

    public String sql() {
        return sql;
    }
}
