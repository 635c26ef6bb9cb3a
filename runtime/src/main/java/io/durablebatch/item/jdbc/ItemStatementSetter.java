package io.durablebatch.item.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Binds the parameters of the writer's statement for one item. */
@FunctionalInterface
public interface ItemStatementSetter<T> {

    void bind(PreparedStatement statement, T item) throws SQLException;
}
