package io.durablebatch.item.jdbc;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.regex.Pattern;

import io.durablebatch.Checks;
import io.durablebatch.execution.Checkpoint;

/**
 * The unique, non-null column a {@link JdbcPagingItemReader} orders by and resumes after: a page is
 * {@code WHERE column > :lastKey ORDER BY column LIMIT :pageSize}, so each page is one index range
 * scan however deep into the table it is, and the checkpoint is the last key read. The
 * {@code JpaKeysetItemReader} takes one too, naming an entity attribute path ({@code o.id}).
 * <p>
 * The column is a plain or table-qualified identifier ({@code id}, {@code o.id}); it is read from
 * the result by its unqualified name, so it must be in the select list under that name.
 */
public final class SortKey {

    private static final Pattern COLUMN = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*(\\.[A-Za-z_][A-Za-z0-9_$]*)?");

    /** How a kind of key is read from a row, bound to a statement and kept in a checkpoint. */
    private enum Type {
        LONG {
            @Override
            Object read(ResultSet row, String label) throws SQLException {
                long value = row.getLong(label);
                return row.wasNull() ? null : value;
            }

            @Override
            byte[] toBytes(Object key) {
                return ByteBuffer.allocate(Long.BYTES).putLong((Long) key).array();
            }

            @Override
            Object fromBytes(byte[] bytes) {
                requireLength(bytes, Long.BYTES);
                return ByteBuffer.wrap(bytes).getLong();
            }
        },
        TEXT {
            @Override
            Object read(ResultSet row, String label) throws SQLException {
                return row.getString(label);
            }

            @Override
            byte[] toBytes(Object key) {
                return ((String) key).getBytes(StandardCharsets.UTF_8);
            }

            @Override
            Object fromBytes(byte[] bytes) {
                return new String(bytes, StandardCharsets.UTF_8);
            }
        },
        UUID {
            @Override
            Object read(ResultSet row, String label) throws SQLException {
                return row.getObject(label, java.util.UUID.class);
            }

            @Override
            byte[] toBytes(Object key) {
                java.util.UUID uuid = (java.util.UUID) key;
                return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                        .putLong(uuid.getLeastSignificantBits()).array();
            }

            @Override
            Object fromBytes(byte[] bytes) {
                requireLength(bytes, 16);
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                return new java.util.UUID(buffer.getLong(), buffer.getLong());
            }
        };

        abstract Object read(ResultSet row, String label) throws SQLException;

        abstract byte[] toBytes(Object key);

        abstract Object fromBytes(byte[] bytes);

        /** The tag in front of the key's bytes, so a key of another type is refused on reopen. */
        byte tag() {
            return (byte) (ordinal() + 1);
        }

        void requireLength(byte[] bytes, int length) {
            if (bytes.length != length) {
                throw new IllegalArgumentException("a " + name().toLowerCase() + " key has " + length
                        + " bytes, not " + bytes.length);
            }
        }
    }

    private final String column;
    private final String label;
    private final Type type;

    private SortKey(String column, Type type) {
        Checks.notNull(column, "sortKey column");
        if (!COLUMN.matcher(column).matches()) {
            throw new IllegalArgumentException("sortKey column must be an identifier, optionally qualified by a table,"
                    + " got '" + column + "'");
        }
        this.column = column;
        this.label = column.substring(column.indexOf('.') + 1);
        this.type = type;
    }

    /** A {@code bigint}, {@code integer} or {@code smallint} key. */
    public static SortKey longKey(String column) {
        return new SortKey(column, Type.LONG);
    }

    /** A text key, ordered by the column's collation. */
    public static SortKey textKey(String column) {
        return new SortKey(column, Type.TEXT);
    }

    /** A {@code uuid} key. */
    public static SortKey uuidKey(String column) {
        return new SortKey(column, Type.UUID);
    }

    public String column() {
        return column;
    }

    @Override
    public String toString() {
        return type.name().toLowerCase() + " key " + column;
    }

    /** The key of the current row, refusing a null one. */
    Object read(ResultSet row) throws SQLException {
        Object key = type.read(row, label);
        if (key == null) {
            throw new IllegalStateException("sort key " + column + " is null in a row: the sort key must be unique"
                    + " and not null");
        }
        return key;
    }

    void bind(PreparedStatement statement, int index, Object key) throws SQLException {
        statement.setObject(index, key);
    }

    /**
     * The key as the bytes a reader's checkpoint keeps: its type's tag, then its value. A
     * {@code longKey} takes any integral number.
     */
    public byte[] encode(Object key) {
        if (type == Type.LONG && (key instanceof Integer || key instanceof Short)) {
            key = ((Number) key).longValue();
        }
        byte[] value = type.toBytes(key);
        // the checkpoint adds its own format tag in front of these bytes
        if (value.length + 2 > Checkpoint.MAX_LENGTH) {
            throw new IllegalStateException("sort key " + column + " has a value of " + value.length
                    + " bytes, more than a checkpoint holds");
        }
        byte[] bytes = new byte[value.length + 1];
        bytes[0] = type.tag();
        System.arraycopy(value, 0, bytes, 1, value.length);
        return bytes;
    }

    /** The key encoded by {@link #encode}; an {@link IllegalArgumentException} if it is not of this type. */
    public Object decode(byte[] bytes) {
        if (bytes.length == 0 || bytes[0] != type.tag()) {
            throw new IllegalArgumentException("it holds no " + this);
        }
        return type.fromBytes(Arrays.copyOfRange(bytes, 1, bytes.length));
    }
}
