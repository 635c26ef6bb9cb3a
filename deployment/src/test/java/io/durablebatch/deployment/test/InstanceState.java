package io.durablebatch.deployment.test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.junit.jupiter.api.function.Executable;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.quarkus.arc.Arc;

/**
 * Everything the repository stores about one job instance, as text: every row of its executions,
 * steps, flow nodes and decisions, partition plans and partitions. Comparing it before and after a
 * refusal proves that the refusal changed nothing, including rows no public finder shows (start
 * counters, sequence heads).
 */
public final class InstanceState {

    private static final String QUERY = "SELECT concat_ws(E'\\n', "
            + "(SELECT string_agg(t::text, ';' ORDER BY t.id) FROM {p}job_execution t WHERE t.job_instance_id = ?), "
            + "(SELECT string_agg(t::text, ';' ORDER BY t.id) FROM {p}step_execution t WHERE t.job_instance_id = ?), "
            + "(SELECT string_agg(t::text, ';' ORDER BY t.node_id) FROM {p}flow_node t WHERE t.job_instance_id = ?), "
            + "(SELECT string_agg(t::text, ';' ORDER BY t.job_execution_id, t.sequence) FROM {p}flow_decision t "
            + "WHERE t.job_instance_id = ?), "
            + "(SELECT string_agg(t::text, ';' ORDER BY t.job_execution_id) FROM {p}flow_decision_head t "
            + "JOIN {p}job_execution e ON e.id = t.job_execution_id WHERE e.job_instance_id = ?), "
            + "(SELECT string_agg(t::text, ';' ORDER BY t.parent_step_execution_id) FROM {p}step_partition_plan t "
            + "JOIN {p}step_execution s ON s.id = t.parent_step_execution_id WHERE s.job_instance_id = ?), "
            + "(SELECT string_agg(t::text, ';' ORDER BY t.id) FROM {p}step_partition t "
            + "JOIN {p}step_execution s ON s.id = t.parent_step_execution_id WHERE s.job_instance_id = ?)) AS state";

    private InstanceState() {
    }

    /**
     * Asserts that {@code call}, in its own unit of work, is refused with {@code error} and leaves
     * everything stored about {@code instance} as it was.
     */
    public static RepositoryException assertRefusedUnchanged(JobInstanceId instance, RepositoryError error,
            Executable call) {
        String before = of(instance);
        RepositoryException refusal = RepositoryTestSupport.assertRefused(error, call);
        assertEquals(before, of(instance), () -> "the refusal " + error + " changed the stored state");
        return refusal;
    }

    /** The instance's stored state, read in its own connection (committed data only). */
    public static String of(JobInstanceId instance) {
        String sql = Arc.container().instance(RepositoryTables.class).get().sql(QUERY);
        try (Connection connection = Arc.container().instance(AgroalDataSource.class).get().getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 1; i <= 7; i++) {
                statement.setLong(i, instance.value());
            }
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getString("state");
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
