package io.durablebatch.test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;

/** Counts rows of the test database, with plain JDBC. */
@Singleton
public class TestDatabase {

    private final AgroalDataSource dataSource;

    TestDatabase(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The first column of the first row of {@code sql}, a count, with {@code arguments} bound in order. */
    long count(String sql, Object... arguments) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < arguments.length; i++) {
                statement.setObject(i + 1, arguments[i]);
            }
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The numbers of {@code run} in {@code junit_numbers}, each counted once. */
    long numbers(String run) {
        return count("SELECT count(DISTINCT n) FROM junit_numbers WHERE run = ?", run);
    }
}
