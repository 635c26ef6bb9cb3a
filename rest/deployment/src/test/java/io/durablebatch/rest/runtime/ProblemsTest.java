package io.durablebatch.rest.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;

import io.durablebatch.repository.RepositoryError;
import io.durablebatch.rest.Problem;

/**
 * A problem never shows what only the server should know: a 5xx names only the correlation id its
 * log entry has; a 4xx whose detail shows SQL, a PostgreSQL message, a Java name or a stack frame
 * gets a neutral one; a refusal's own detail is kept. Every problem carries its correlation id.
 */
class ProblemsTest {

    private static final String SQL_FAILURE = "STORAGE_FAILURE: ERROR: date/time field value out of range: "
            + "\"300000-01-01 00:00:00+00\" in SELECT e.id FROM dbatch_job_execution e WHERE e.created_at >= ? "
            + "(org.postgresql.util.PSQLException)";

    @Test
    void aServerFailureNamesOnlyTheCorrelationIdOfItsLogEntry() throws Exception {
        Problem problem = Problems.of(500, RepositoryError.STORAGE_FAILURE.name(), SQL_FAILURE, Optional.empty(),
                "/batch/executions", Optional.empty(), new IllegalStateException(SQL_FAILURE));
        assertTrue(problem.detail().contains(problem.correlationId()), problem.detail());
        assertFalse(Problems.showsInternals(problem.detail()), problem.detail());
        String json = new ObjectMapper().registerModule(new Jdk8Module()).writeValueAsString(problem);
        assertTrue(json.contains("\"correlationId\":\"" + problem.correlationId() + "\""), json);
        assertFalse(json.contains("SELECT") || json.contains("postgresql"), json);
        Problem transientFailure = Problems.of(503, RepositoryError.STORAGE_TRANSIENT.name(), SQL_FAILURE,
                Optional.empty(), "/batch/executions", Optional.empty(), null);
        assertTrue(transientFailure.detail().startsWith("the job repository is unavailable for a moment"),
                transientFailure.detail());
    }

    @Test
    void aRefusalWhoseDetailShowsInternalsGetsANeutralOne() {
        for (String detail : List.of(SQL_FAILURE, "Cannot deserialize value of type `java.lang.Long` from String",
                "Cannot invoke \"Object.toString()\" because \"x\" is null: NullPointerException",
                "failed at io.durablebatch.rest.runtime.OperatorResource.purge(OperatorResource.java:42)",
                "select id from dbatch_job_instance where id = 1", "SQLState 22008")) {
            Problem problem = Problems.of(422, "VALUE_INVALID", detail, Optional.empty(), "/batch/purge",
                    Optional.empty(), null);
            assertFalse(Problems.showsInternals(problem.detail()), detail + " -> " + problem.detail());
            assertTrue(problem.detail().contains(problem.correlationId()), problem.detail());
        }
    }

    @Test
    void aRefusalsOwnDetailIsKept() {
        for (String detail : List.of("EXECUTION_ACTIVE: job instance 7 has an active execution 42 (STARTED)",
                "job instance 7: its latest execution 42 (attempt 1) is STARTED: its owner node-a.example.com/4f1c "
                        + "holds its lease until 2026-12-05T23:20:14.518Z on the database clock (in 11 s) and is "
                        + "presumed alive while it renews the lease. It can be restarted once it has ended, or, should "
                        + "its owner be gone, once the lease has run out and a sweeper has recovered it (FAILED, at its "
                        + "next sweep); to restart it sooner, recover it declaring its owner dead",
                "createdFrom must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, got '+300000-01-01T00:00:00Z'",
                "resolution: must be one of [FAILED, ABANDONED]", "job execution 5 was never recovered",
                "a request with the same key as another one is refused")) {
            Problem problem = Problems.of(409, "EXECUTION_ACTIVE", detail, Optional.empty(), "/batch/x", Optional.empty(),
                    null);
            assertEquals(detail, problem.detail());
            assertTrue(problem.correlationId().matches("[0-9a-f-]{36}"), problem.correlationId());
        }
    }
}
