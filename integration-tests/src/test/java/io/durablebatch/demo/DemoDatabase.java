package io.durablebatch.demo;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Plain JDBC reads of the demo's and the repository's tables, as an auditor would check them: of the
 * shared test database, of a torture test's own database on the same cluster, or of another one (a
 * private cluster). The repository's tables have the default prefix ({@code %PREFIX%} below).
 */
final class DemoDatabase {

    private static final DemoDatabase SHARED = new DemoDatabase(System.getProperty("it.db.url"),
            System.getProperty("it.db.username", "postgres"), System.getProperty("it.db.password", "postgres"), "dbatch_");

    private final String url;
    private final String username;
    private final String password;
    private final String prefix;

    private DemoDatabase(String url, String username, String password, String prefix) {
        this.url = url;
        this.username = username;
        this.password = password;
        this.prefix = prefix;
    }

    /** The shared test database, repository tables with the default prefix. */
    static DemoDatabase shared() {
        return SHARED;
    }

    /** Another database, as user postgres (trust authentication). */
    static DemoDatabase at(String url) {
        return new DemoDatabase(url, "postgres", "", "dbatch_");
    }

    /**
     * The database {@code name} on this database's cluster, dropped (its sessions ended) and created
     * anew; only a torture test's own database is.
     */
    DemoDatabase recreated(String name) throws SQLException {
        if (!name.startsWith("torture_") || !name.matches("[a-z_]+")) {
            throw new IllegalStateException("only a torture test's own database is recreated, not " + name);
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + name);
        }
        return new DemoDatabase(url.replaceFirst("/[^/?]+(\\?.*)?$", "/" + name + "$1"), username, password, prefix);
    }

    String url() {
        return url;
    }

    String username() {
        return username;
    }

    String password() {
        return password;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, username, password);
    }

    /** The column {@code %FAILURE%} selects: a step's or an execution's failure, type and message, long ones cut. */
    private static final String FAILURE_COLUMN = "failure";
    private static final String FAILURE = """
            failure_type || ': ' || CASE WHEN length(failure_message) <= 400 THEN failure_message
                ELSE left(failure_message, 150) || ' [...] ' || right(failure_message, 250) END AS failure""";

    private PreparedStatement prepare(Connection connection, String sql, Object... parameters) throws SQLException {
        PreparedStatement statement = connection
                .prepareStatement(sql.replace("%PREFIX%", prefix).replace("%FAILURE%", FAILURE));
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }

    long count(String sql, Object... parameters) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, sql, parameters);
                ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** The first row of a query, its columns in order. */
    List<Object> row(String sql, Object... parameters) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, sql, parameters);
                ResultSet rows = statement.executeQuery()) {
            List<Object> row = new ArrayList<>();
            if (rows.next()) {
                for (int column = 1; column <= rows.getMetaData().getColumnCount(); column++) {
                    row.add(rows.getObject(column));
                }
            }
            return row;
        }
    }

    int update(String sql, Object... parameters) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        }
    }

    /** A step execution as stored: status, read and write counts, checkpoint in hex, version, failure. */
    record StoredStep(long id, String name, String status, long readCount, long writeCount, String checkpointHex,
            long version, String failure) {
    }

    List<StoredStep> steps(long jobExecutionId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, """
                        SELECT id, step_name, status, read_count, write_count, checkpoint, version, %FAILURE%
                        FROM %PREFIX%step_execution WHERE job_execution_id = ? ORDER BY id""", jobExecutionId);
                ResultSet rows = statement.executeQuery()) {
            List<StoredStep> steps = new ArrayList<>();
            while (rows.next()) {
                byte[] checkpoint = rows.getBytes("checkpoint");
                steps.add(new StoredStep(rows.getLong("id"), rows.getString("step_name"), rows.getString("status"),
                        rows.getLong("read_count"), rows.getLong("write_count"),
                        checkpoint == null ? null : HexFormat.of().formatHex(checkpoint), rows.getLong("version"),
                        rows.getString(FAILURE_COLUMN)));
            }
            return steps;
        }
    }

    Optional<StoredStep> step(long stepExecutionId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection,
                        "SELECT job_execution_id FROM %PREFIX%step_execution WHERE id = ?", stepExecutionId);
                ResultSet rows = statement.executeQuery()) {
            if (!rows.next()) {
                return Optional.empty();
            }
            return steps(rows.getLong(1)).stream().filter(step -> step.id() == stepExecutionId).findFirst();
        }
    }

    /** A partition of a parent step as stored, with its worker's checkpoint in hex. */
    record StoredPartition(String key, String status, String workerCheckpointHex, long workerWrites, Long worker,
            int releaseCount) {
    }

    List<StoredPartition> partitions(long parentStepExecutionId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, """
                        SELECT p.partition_key, p.status, w.checkpoint, w.write_count, p.worker_step_execution_id,
                               p.release_count
                        FROM %PREFIX%step_partition p LEFT JOIN %PREFIX%step_execution w ON w.id = p.worker_step_execution_id
                        WHERE p.parent_step_execution_id = ? ORDER BY p.ordinal""", parentStepExecutionId);
                ResultSet rows = statement.executeQuery()) {
            List<StoredPartition> partitions = new ArrayList<>();
            while (rows.next()) {
                byte[] checkpoint = rows.getBytes("checkpoint");
                partitions.add(new StoredPartition(new String(rows.getBytes("partition_key"), StandardCharsets.UTF_8),
                        rows.getString("status"), checkpoint == null ? null : HexFormat.of().formatHex(checkpoint),
                        rows.getLong("write_count"), (Long) rows.getObject("worker_step_execution_id"),
                        rows.getInt("release_count")));
            }
            return partitions;
        }
    }

    /** A partition handed from a worker whose lease ran out to a new one, from the release audit. */
    record StoredRelease(long partition, long worker, String reason) {
    }

    List<StoredRelease> partitionReleases(long parentStepExecutionId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, """
                        SELECT step_partition_id, worker_step_execution_id, reason FROM %PREFIX%partition_release
                        WHERE parent_step_execution_id = ? ORDER BY id""", parentStepExecutionId);
                ResultSet rows = statement.executeQuery()) {
            List<StoredRelease> releases = new ArrayList<>();
            while (rows.next()) {
                releases.add(new StoredRelease(rows.getLong(1), rows.getLong(2), rows.getString(3)));
            }
            return releases;
        }
    }

    /** An execution of an instance as stored, with its owner, lease, end and the failure of the execution itself. */
    record StoredExecution(long id, int attempt, String status, long version, String owner, Timestamp leaseExpiresAt,
            Timestamp endedAt, String failure) {

        boolean active() {
            return List.of("STARTING", "STARTED", "STOPPING").contains(status);
        }
    }

    List<StoredExecution> executions(long jobInstanceId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, """
                        SELECT id, attempt, status, version, owner_token, lease_expires_at, ended_at, %FAILURE%
                        FROM %PREFIX%job_execution WHERE job_instance_id = ? ORDER BY id""", jobInstanceId);
                ResultSet rows = statement.executeQuery()) {
            List<StoredExecution> executions = new ArrayList<>();
            while (rows.next()) {
                executions.add(new StoredExecution(rows.getLong(1), rows.getInt(2), rows.getString(3), rows.getLong(4),
                        rows.getString(5), rows.getTimestamp(6), rows.getTimestamp(7), rows.getString(FAILURE_COLUMN)));
            }
            return executions;
        }
    }

    long instanceOf(long jobExecutionId) throws SQLException {
        return count("SELECT job_instance_id FROM %PREFIX%job_execution WHERE id = ?", jobExecutionId);
    }

    /** The recovery audit of an execution: who resolved it, why, as what, and how many steps with it. */
    record StoredRecovery(String actor, String reason, String resolution, int resolvedSteps) {

        /** Who decided, why, and as what: {@code "system:lease OWNER_LOST FAILED"}. */
        String decision() {
            return actor + " " + reason + " " + resolution;
        }
    }

    Optional<StoredRecovery> recovery(long jobExecutionId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, """
                        SELECT actor, reason, resolution, resolved_steps FROM %PREFIX%recovery_decision
                        WHERE job_execution_id = ?""", jobExecutionId);
                ResultSet rows = statement.executeQuery()) {
            return rows.next() ? Optional.of(new StoredRecovery(rows.getString(1), rows.getString(2), rows.getString(3),
                    rows.getInt(4))) : Optional.empty();
        }
    }

    String recoveryActor(long jobExecutionId) throws SQLException {
        return recovery(jobExecutionId).map(StoredRecovery::actor).orElse(null);
    }

    /** An operator audit row of an instance: the action, who asked, the execution it names, its outcome. */
    record StoredOperatorRequest(String action, String actor, Long jobExecutionId, String outcome) {
    }

    List<StoredOperatorRequest> operatorRequests(long jobInstanceId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, """
                        SELECT action, actor, job_execution_id, outcome FROM %PREFIX%operator_request
                        WHERE job_instance_id = ? ORDER BY id""", jobInstanceId);
                ResultSet rows = statement.executeQuery()) {
            List<StoredOperatorRequest> requests = new ArrayList<>();
            while (rows.next()) {
                requests.add(new StoredOperatorRequest(rows.getString(1), rows.getString(2),
                        (Long) rows.getObject(3), rows.getString(4)));
            }
            return requests;
        }
    }

    String executionStatus(long jobExecutionId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection,
                        "SELECT status FROM %PREFIX%job_execution WHERE id = ?", jobExecutionId);
                ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getString(1);
        }
    }

    /**
     * The sessions on this database other than this one, and what blocks them: the first thing to
     * look at when something waits forever.
     */
    String sessions() {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("""
                        SELECT pid, application_name, state, wait_event_type, wait_event, pg_blocking_pids(pid),
                               now() - xact_start AS in_transaction, left(query, 160)
                        FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                        ORDER BY pid""")) {
            StringBuilder sessions = new StringBuilder();
            while (rows.next()) {
                sessions.append(String.format("  pid %s %s state=%s wait=%s/%s blocked-by=%s in-transaction=%s: %s%n",
                        rows.getObject(1), rows.getString(2), rows.getString(3), rows.getString(4), rows.getString(5),
                        rows.getString(6), rows.getString(7), rows.getString(8)));
            }
            return sessions.toString();
        } catch (SQLException e) {
            return "  (sessions unreadable: " + e.getMessage() + ")";
        }
    }

    /** Terminates every other session on this database, as a network cut or a DBA would; returns how many. */
    int terminateOtherSessions() throws SQLException {
        return (int) count("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                + "WHERE datname = current_database() AND pid <> pg_backend_pid()");
    }
}
