package io.durablebatch.item.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;

/** Maps the current row of a result to an item; it must not move the cursor. */
@FunctionalInterface
public interface RowMapper<T> {

    /** The item of the row; never {@code null}, which would end the input. */
    T map(ResultSet row) throws SQLException;
}
