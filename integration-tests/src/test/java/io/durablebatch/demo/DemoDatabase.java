package io.durablebatch.demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Plain JDBC reads of the demo's and the repository's tables, as an auditor would check them. */
final class DemoDatabase {

    private DemoDatabase() {
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("it.db.url"), System.getProperty("it.db.username", "postgres"),
                System.getProperty("it.db.password", "postgres"));
    }

    static long count(String sql, Object... parameters) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** A step execution as stored: status, write count, read count, checkpoint in hex. */
    record StoredStep(long id, String name, String status, long readCount, long writeCount, String checkpointHex) {
    }

    static List<StoredStep> steps(long jobExecutionId) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(
                "SELECT id, step_name, status, read_count, write_count, checkpoint FROM dbatch_step_execution "
                        + "WHERE job_execution_id = ? ORDER BY id")) {
            statement.setLong(1, jobExecutionId);
            List<StoredStep> steps = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    byte[] checkpoint = rows.getBytes("checkpoint");
                    steps.add(new StoredStep(rows.getLong("id"), rows.getString("step_name"), rows.getString("status"),
                            rows.getLong("read_count"), rows.getLong("write_count"),
                            checkpoint == null ? null : HexFormat.of().formatHex(checkpoint)));
                }
            }
            return steps;
        }
    }

    /** A partition of a parent step as stored, with its worker's checkpoint in hex. */
    record StoredPartition(String key, String status, String workerCheckpointHex, long workerWrites) {
    }

    static List<StoredPartition> partitions(long parentStepExecutionId) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(
                "SELECT p.partition_key, p.status, w.checkpoint, w.write_count FROM dbatch_step_partition p "
                        + "LEFT JOIN dbatch_step_execution w ON w.id = p.worker_step_execution_id "
                        + "WHERE p.parent_step_execution_id = ? ORDER BY p.ordinal")) {
            statement.setLong(1, parentStepExecutionId);
            List<StoredPartition> partitions = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    byte[] checkpoint = rows.getBytes("checkpoint");
                    partitions.add(new StoredPartition(new String(rows.getBytes("partition_key"),
                            java.nio.charset.StandardCharsets.UTF_8), rows.getString("status"),
                            checkpoint == null ? null : HexFormat.of().formatHex(checkpoint), rows.getLong("write_count")));
                }
            }
            return partitions;
        }
    }

    static String recoveryActor(long jobExecutionId) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(
                "SELECT actor FROM dbatch_recovery_decision WHERE job_execution_id = ?")) {
            statement.setLong(1, jobExecutionId);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    static String executionStatus(long jobExecutionId) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(
                "SELECT status FROM dbatch_job_execution WHERE id = ?")) {
            statement.setLong(1, jobExecutionId);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        }
    }
}
