package io.durablebatch.rest.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.durablebatch.repository.RepositoryError;
import io.durablebatch.rest.Problem;

/**
 * Every {@link RepositoryError} has an HTTP status, and the status follows the rule: 404 for what
 * is not found or defined, 412 for a stale version, 503 (retry) for transient storage failures, 500
 * only for failures the caller cannot cause, 409 or 422 for every refusal. Walks every constant, so
 * a new code is checked without the test changing.
 */
class ProblemStatusTest {

    @Test
    void everyRepositoryErrorHasTheStatusOfItsKind() {
        for (RepositoryError error : RepositoryError.values()) {
            int status = ProblemStatus.of(error);
            String name = error.name();
            if (name.endsWith("_NOT_FOUND") || error == RepositoryError.JOB_NOT_DEFINED) {
                assertEquals(404, status, name);
            } else if (error == RepositoryError.VERSION_CONFLICT) {
                assertEquals(412, status, name);
            } else if (error == RepositoryError.STORAGE_TRANSIENT) {
                assertEquals(503, status, name);
            } else if (error == RepositoryError.STORAGE_FAILURE || error == RepositoryError.TRANSACTION_REQUIRED) {
                assertEquals(500, status, name);
            } else {
                assertTrue(Set.of(409, 422).contains(status), name + " is a refusal, answered " + status);
            }
        }
    }

    @Test
    void everyProblemTypeIsAUrnOfItsCode() {
        assertEquals("urn:durable-batch:problem:execution-active",
                Problem.typeOf(RepositoryError.EXECUTION_ACTIVE.name()));
        assertEquals("Execution active", Problems.title("EXECUTION_ACTIVE"));
    }
}
