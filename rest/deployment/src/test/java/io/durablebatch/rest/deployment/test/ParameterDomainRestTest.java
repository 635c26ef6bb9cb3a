package io.durablebatch.rest.deployment.test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.specification.RequestSpecification;

/**
 * Parameter values over HTTP (issue 26): a value outside the parameter domain is refused with a 422
 * {@code PARAMETER_OUT_OF_DOMAIN} problem naming it, before anything is launched; a value stored
 * outside it by an earlier version is listed escaped, compactly, never a 500.
 */
class ParameterDomainRestTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RootPathJob.class))
            .overrideConfigKey("quarkus.http.test-port", "0")
            .overrideConfigKey("quarkus.http.auth.basic", "true")
            .overrideConfigKey("quarkus.security.users.embedded.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.plain-text", "true")
            .overrideConfigKey("quarkus.security.users.embedded.users.operator", "operator-secret")
            .overrideConfigKey("quarkus.security.users.embedded.roles.operator", "batch-operator");

    @Inject
    JobRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RepositoryTables tables;

    @Test
    void aValueOutsideTheDomainIsRefusedBeforeAnythingIsLaunched() {
        long before = instances();
        String run = UUID.randomUUID().toString();
        operator().body("{\"parameters\": {\"run\": \"" + run + "\", \"huge\": 1e400}}")
                .post("/batch/jobs/{job}/executions", RootPathJob.NAME).then().statusCode(422)
                .contentType("application/problem+json").body("code", equalTo("PARAMETER_OUT_OF_DOMAIN"))
                .body("detail", containsString("'huge'"));
        operator().body("{\"parameters\": {\"run\": \"" + run + "\"}, \"nonIdentifying\": {\"amount\": "
                + "{\"decimal\": \"1e999999999\"}}}")
                .post("/batch/jobs/{job}/executions", RootPathJob.NAME).then().statusCode(422)
                .body("code", equalTo("PARAMETER_OUT_OF_DOMAIN")).body("detail", containsString("'amount'"));
        assertEquals(before, instances(), "nothing was launched");
    }

    @Test
    void aValueStoredOutsideTheDomainIsListedEscaped() throws SQLException {
        Map<String, Object> legacy = Map.of("amount", new BigDecimal("1e999999999"), "ratio", Double.POSITIVE_INFINITY);
        JobInstanceKey key = JobInstanceKey.of(JobName.of(RootPathJob.NAME), Map.of("run", UUID.randomUUID().toString(),
                "amount", new BigDecimal("1e999999999")));
        long instance;
        long execution;
        try (Connection connection = dataSource.getConnection()) {
            instance = insert(connection, """
                    INSERT INTO {p}job_instance (job_name, key_bytes, key_digest, created_at)
                    VALUES (?, ?, ?, now()) RETURNING id""", RootPathJob.NAME, key.canonicalBytes(), key.digest());
            execution = insert(connection, """
                    INSERT INTO {p}job_execution (job_instance_id, job_name, attempt, status, exit_code, parameters,
                                                  created_at, ended_at, last_updated)
                    VALUES (?, ?, 1, 'FAILED', 'FAILED', ?, now(), now(), now()) RETURNING id""", instance,
                    RootPathJob.NAME, ExecutionParameters.of(legacy).canonicalBytes());
        }
        String listing = operator().queryParam("job", RootPathJob.NAME).get("/batch/executions").then().statusCode(200)
                .body("items.find { it.id == " + execution + " }.parameters.amount.outOfDomain",
                        equalTo("decimal 1E+999999999"))
                .body("items.find { it.id == " + execution + " }.parameters.ratio.outOfDomain",
                        equalTo("double Infinity"))
                .extract().asString();
        assertTrue(listing.length() < 10_000, "a compact page: " + listing.length() + " characters");
        operator().get("/batch/executions/{id}", execution).then().statusCode(200);
        operator().get("/batch/instances/{id}", instance).then().statusCode(200)
                .body("instance.parameters.amount.outOfDomain", equalTo("decimal 1E+999999999"));
    }

    private long insert(Connection connection, String template, Object... arguments) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(tables.substitute(template))) {
            for (int i = 0; i < arguments.length; i++) {
                statement.setObject(i + 1, arguments[i]);
            }
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private long instances() {
        return QuarkusTransaction.requiringNew().call(() -> repository.countJobInstances(JobName.of(RootPathJob.NAME)));
    }

    private static RequestSpecification operator() {
        return given().auth().preemptive().basic("operator", "operator-secret").contentType("application/json");
    }
}
