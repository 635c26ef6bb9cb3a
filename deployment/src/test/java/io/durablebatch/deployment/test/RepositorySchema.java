package io.durablebatch.deployment.test;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The repository's tables as the tests know them, written out here rather than read from the runtime
 * or the catalog, so that a test does not trust the code it tests: the schema tests check that the
 * migrations create exactly these tables under the configured prefix, and {@link StoredState} reads
 * every one of them.
 */
public final class RepositorySchema {

    /**
     * One table, by its name without the prefix: whether an identity column numbers its rows, and how
     * the rows that name a set of job instances (bound as a {@code bigint[]}) are found, if it has any.
     */
    public record Table(String name, boolean identity, Optional<String> rowsOfInstances) {
    }

    /** Flyway's history of the repository's own migrations. */
    public static final String HISTORY = "schema_history";

    private static final String EXECUTIONS_OF_INSTANCES = "(SELECT id FROM {p}job_execution WHERE job_instance_id = ANY (?))";
    private static final String STEPS_OF_INSTANCES = "(SELECT id FROM {p}step_execution WHERE job_instance_id = ANY (?))";

    /** Every table of the migrations, in the order they create them. */
    public static final List<Table> TABLES = List.of(
            // V1: the core
            naming("job_instance", true, "id = ANY (?)"),
            naming("job_execution", true, "job_instance_id = ANY (?)"),
            naming("step_execution", true, "job_instance_id = ANY (?)"),
            new Table("definition_upgrade", false, Optional.empty()),
            naming("recovery_decision", true, "job_instance_id = ANY (?)"),
            // V2: flows
            naming("flow_node", false, "job_instance_id = ANY (?)"),
            naming("flow_decision", false, "job_instance_id = ANY (?)"),
            naming("flow_decision_head", false, "job_execution_id IN " + EXECUTIONS_OF_INSTANCES),
            // V3: partitions
            naming("step_partition_plan", false, "parent_step_execution_id IN " + STEPS_OF_INSTANCES),
            naming("step_partition", true, "parent_step_execution_id IN " + STEPS_OF_INSTANCES),
            // V4: operator control
            naming("operator_request", true, "job_instance_id = ANY (?)"),
            // V5: retention
            naming("retention_hold", false, "job_instance_id = ANY (?)"),
            naming("retention_action", true, "job_instance_id = ANY (?)"),
            // V8: leases
            naming("partition_release", true, "parent_step_execution_id IN " + STEPS_OF_INSTANCES),
            // V12: schedules (by job name, no instance)
            new Table("schedule", false, Optional.empty()),
            new Table("schedule_event", true, Optional.empty()));

    private RepositorySchema() {
    }

    /** The names of every table and of the history, under {@code prefix}. */
    public static Set<String> tableNames(String prefix) {
        Set<String> names = new TreeSet<>();
        TABLES.forEach(table -> names.add(prefix + table.name()));
        names.add(prefix + HISTORY);
        return names;
    }

    private static Table naming(String name, boolean identity, String rowsOfInstances) {
        return new Table(name, identity, Optional.of(rowsOfInstances));
    }
}
