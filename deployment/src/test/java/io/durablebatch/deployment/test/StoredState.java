package io.durablebatch.deployment.test;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.function.Executable;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.RepositoryDataSource;

/**
 * What the database stores, read with plain JDBC outside any unit of work (committed data only) and
 * outside the repository, so that its bugs cannot hide here. Compared before and after a refusal,
 * {@link #of} proves that the refusal changed nothing: neither a row that names the instance, in any
 * table of {@link RepositorySchema} (start counters and sequence heads included, which no finder
 * shows), nor anything elsewhere (the highest id or the row count of every table).
 */
@ApplicationScoped
public class StoredState {

    private final AgroalDataSource dataSource;
    private final RepositoryTables tables;
    private final Map<String, String> rowsOfInstances = new LinkedHashMap<>();
    /** The highest id or row count of every table, as one line (a {@code {p}} template). */
    private final String marks;

    StoredState(@RepositoryDataSource AgroalDataSource dataSource, RepositoryTables tables) {
        this.dataSource = dataSource;
        this.tables = tables;
        List<String> tableMarks = new ArrayList<>();
        for (RepositorySchema.Table table : RepositorySchema.TABLES) {
            table.rowsOfInstances().ifPresent(condition -> rowsOfInstances.put(table.name(),
                    // a lease is liveness, not state: its renewal changes nothing a test compares
                    tables.substitute("SELECT (to_jsonb(t) - 'lease_expires_at')::text FROM {p}" + table.name() + " t WHERE "
                            + condition + " ORDER BY 1")));
            // the highest id is an index probe; tables without one stay small
            tableMarks.add("'" + table.name() + (table.identity() ? " max id'" : " rows'") + ", (SELECT "
                    + (table.identity() ? "max(id)" : "count(*)") + " FROM {p}" + table.name() + ")");
        }
        this.marks = "SELECT concat_ws(' ', " + String.join(", ", tableMarks) + ")";
    }

    /** Every stored row that names one of {@code instances}, table by table, then the marks of every table. */
    public List<String> of(JobInstanceId... instances) {
        return of(Arrays.asList(instances));
    }

    public List<String> of(List<JobInstanceId> instances) {
        List<String> state = rowsNaming(instances);
        state.add(String.valueOf(rows(marks).get(0).values().iterator().next()));
        return state;
    }

    /** Every stored row that names one of {@code instances}, table by table, as PostgreSQL prints it. */
    public List<String> rowsNaming(List<JobInstanceId> instances) {
        List<String> rows = new ArrayList<>();
        withConnection(connection -> {
            Array ids = ids(connection, instances);
            for (Map.Entry<String, String> table : rowsOfInstances.entrySet()) {
                for (Map<String, Object> row : query(connection, table.getValue(), ids)) {
                    rows.add(table.getKey() + " " + row.values().iterator().next());
                }
            }
            return null;
        });
        return rows;
    }

    /** How many stored rows name one of {@code instances}, per table; tables without any are left out. */
    public Map<String, Long> rowCounts(List<JobInstanceId> instances) {
        Map<String, Long> counts = new TreeMap<>();
        withConnection(connection -> {
            Array ids = ids(connection, instances);
            rowsOfInstances.forEach((table, rows) -> {
                long count = query(connection, rows, ids).size();
                if (count > 0) {
                    counts.put(table, count);
                }
            });
            return null;
        });
        return counts;
    }

    /**
     * Asserts that {@code call} is refused with {@code error} in a unit of work that then commits
     * (see {@link RepositoryTestSupport#assertRefused}), and that nothing stored changed.
     */
    public RepositoryException assertRefusedChangingNothing(JobInstanceId instance, RepositoryError error,
            Executable call) {
        List<String> before = of(instance);
        RepositoryException refusal = assertRefused(error, call);
        assertEquals(before, of(instance), "stored rows after the refusal " + refusal.getMessage());
        return refusal;
    }

    /**
     * Every column of every row {@code template} returns ({@code {p}} stands for the table prefix),
     * in order, byte arrays as hex; a {@code long[]} argument is bound as a {@code bigint[]}.
     */
    public List<Map<String, Object>> rows(String template, Object... arguments) {
        return withConnection(connection -> query(connection, tables.substitute(template), arguments));
    }

    /** The stored row of one job execution, every column included (some, such as the owner, no snapshot shows). */
    public Map<String, Object> jobExecutionRow(JobExecutionId id) {
        return rows("SELECT * FROM {p}job_execution WHERE id = ?", id.value()).get(0);
    }

    /** The single number {@code template} returns, e.g. a count. */
    public long number(String template, Object... arguments) {
        return ((Number) rows(template, arguments).get(0).values().iterator().next()).longValue();
    }

    private static Array ids(Connection connection, List<JobInstanceId> instances) throws SQLException {
        return connection.createArrayOf("bigint", instances.stream().map(JobInstanceId::value).toArray(Long[]::new));
    }

    private static List<Map<String, Object>> query(Connection connection, String sql, Object... arguments) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < arguments.length; i++) {
                Object argument = arguments[i];
                if (argument instanceof long[] values) {
                    argument = connection.createArrayOf("bigint", Arrays.stream(values).boxed().toArray(Long[]::new));
                }
                statement.setObject(i + 1, argument);
            }
            try (ResultSet result = statement.executeQuery()) {
                ResultSetMetaData meta = result.getMetaData();
                List<Map<String, Object>> rows = new ArrayList<>();
                while (result.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int column = 1; column <= meta.getColumnCount(); column++) {
                        Object value = result.getObject(column);
                        row.put(meta.getColumnName(column),
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

    @FunctionalInterface
    private interface ConnectionWork<T> {
        T apply(Connection connection) throws SQLException;
    }

    private <T> T withConnection(ConnectionWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.apply(connection);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
