package io.durablebatch.deployment.test;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefusedThenCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.function.Executable;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.RepositoryDataSource;

/**
 * The stored rows of one job instance, as PostgreSQL prints them, plus the highest id of every
 * table: compared before and after a refusal, it proves that the refusal changed nothing, neither
 * on the instance nor anywhere else. Read outside the repository, so its bugs cannot hide here.
 */
@ApplicationScoped
public class RepositoryState {

    private final DataSource dataSource;
    private final List<String> rowsOfInstance;
    private final String tableMarks;

    RepositoryState(@RepositoryDataSource AgroalDataSource dataSource, RepositoryTables tables) {
        this.dataSource = dataSource;
        this.rowsOfInstance = List.of(
                tables.sql("SELECT t::text FROM {p}job_instance t WHERE id = ?"),
                tables.sql("SELECT t::text FROM {p}job_execution t WHERE job_instance_id = ? ORDER BY id"),
                tables.sql("SELECT t::text FROM {p}step_execution t WHERE job_instance_id = ? ORDER BY id"),
                tables.sql("SELECT t::text FROM {p}recovery_decision t WHERE job_instance_id = ? ORDER BY id"));
        this.tableMarks = tables.sql("SELECT concat_ws(' ', 'highest ids:', (SELECT max(id) FROM {p}job_instance), "
                + "(SELECT max(id) FROM {p}job_execution), (SELECT max(id) FROM {p}step_execution), "
                + "(SELECT max(id) FROM {p}recovery_decision), 'upgrades:', "
                + "(SELECT count(*) FROM {p}definition_upgrade))");
    }

    /** Every row of {@code instance} and the marks of every table, in a stable order. */
    public List<String> rowsOf(JobInstanceId instance) {
        List<String> rows = new ArrayList<>();
        try (Connection connection = dataSource.getConnection()) {
            for (String query : rowsOfInstance) {
                try (PreparedStatement statement = connection.prepareStatement(query)) {
                    statement.setLong(1, instance.value());
                    read(statement, rows);
                }
            }
            try (PreparedStatement statement = connection.prepareStatement(tableMarks)) {
                read(statement, rows);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }

    /**
     * Asserts that {@code call} is refused with {@code error} in a unit of work that then commits,
     * and that no stored row of {@code instance}, nor of any other instance, changed.
     */
    public RepositoryException assertRefusedChangingNothing(JobInstanceId instance, RepositoryError error,
            Executable call) {
        List<String> before = rowsOf(instance);
        RepositoryException refusal = assertRefusedThenCommit(error, call);
        assertEquals(before, rowsOf(instance), "stored rows after the refusal " + refusal.getMessage());
        return refusal;
    }

    private static void read(PreparedStatement statement, List<String> rows) throws SQLException {
        try (ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                rows.add(result.getString(1));
            }
        }
    }
}
