package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.restassured.RestAssured.when;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** {@code quarkus.durable-batch.health.enabled=false} leaves the repository out of the readiness checks. */
class ReadinessCheckDisabledTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.health.enabled", "false");

    @Test
    void theRepositoryAndLeaseChecksAreNotPublished() {
        when().get("/q/health/ready").then()
                .statusCode(200)
                .body("checks.name", not(hasItem("Durable Batch job repository")))
                .body("checks.name", not(hasItem("Durable Batch leases")));
    }
}
