package io.durablebatch.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.durablebatch.operator.JobParameters;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** The reset empties the repository's tables under the build's table prefix, whatever it is. */
@QuarkusTest
@TestProfile(PrefixedTablesTest.Prefixed.class)
class PrefixedTablesTest {

    /** The repository's tables are named {@code jt_...}. */
    public static class Prefixed implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.durable-batch.schema.table-prefix", "jt_");
        }
    }

    @Inject
    JobTester tester;

    @Inject
    TestDatabase database;

    @Test
    void resetEmptiesTheTablesUnderThePrefix() {
        JobParameters parameters = JobParameters.of(Map.of("run", UUID.randomUUID().toString(), "count", 5L));
        tester.launch("numbers", parameters).assertCompleted();
        assertTrue(database.count("SELECT count(*) FROM jt_step_execution") > 0);

        tester.resetRepository();

        for (String table : new String[] { "job_instance", "job_execution", "step_execution", "operator_request",
                "flow_decision" }) {
            assertEquals(0, database.count("SELECT count(*) FROM jt_" + table), table);
        }
        assertTrue(database.count("SELECT count(*) FROM jt_schema_history") > 0, "the schema stays");
    }
}
