package io.durablebatch.deployment.test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

/**
 * Reads rows straight from the database, outside any unit of work, so a test can compare what is
 * stored before and after a refused call.
 */
public final class Rows {

    private Rows() {
    }

    /** Every column of every row {@code sql} returns, in order, with byte arrays as hex. */
    public static List<Map<String, Object>> select(DataSource dataSource, String sql, Object... args) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                Object arg = args[i];
                if (arg instanceof long[] ids) {
                    Long[] boxed = new Long[ids.length];
                    for (int j = 0; j < ids.length; j++) {
                        boxed[j] = ids[j];
                    }
                    statement.setArray(i + 1, connection.createArrayOf("bigint", boxed));
                } else {
                    statement.setObject(i + 1, arg);
                }
            }
            try (ResultSet resultSet = statement.executeQuery()) {
                ResultSetMetaData meta = resultSet.getMetaData();
                List<Map<String, Object>> rows = new ArrayList<>();
                while (resultSet.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int c = 1; c <= meta.getColumnCount(); c++) {
                        Object value = resultSet.getObject(c);
                        row.put(meta.getColumnName(c),
                                value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value);
                    }
                    rows.add(row);
                }
                return rows;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** The single number {@code sql} returns, e.g. a count. */
    public static long number(DataSource dataSource, String sql, Object... args) {
        List<Map<String, Object>> rows = select(dataSource, sql, args);
        return ((Number) rows.get(0).values().iterator().next()).longValue();
    }
}
