package io.durablebatch.rest.deployment.test;

import static io.durablebatch.job.Steps.tasklet;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.schedule.Schedule;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.specification.RequestSpecification;

/**
 * The schedule endpoints (issue 30): a viewer reads the schedules with their next fire times, an
 * unknown job is a 404 {@code SCHEDULE_NOT_FOUND} problem, only an operator pauses and resumes, each
 * change is audited in {@code schedule_event}, and a retried request (same Idempotency-Key) gets
 * the same answer without a second record.
 */
class ScheduleRestTest {

    /** Schedule rows and their audit outlive a test run in the shared database: a job name of this run. */
    static final String JOB = "restNightly-" + UUID.randomUUID().toString().substring(0, 8);

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Nightly.class))
            .overrideConfigKey("quarkus.http.test-port", "0")
            .overrideConfigKey("quarkus.http.auth.basic", "true")
            .overrideConfigKey("quarkus.security.users.embedded.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.plain-text", "true")
            .overrideConfigKey("quarkus.security.users.embedded.users.viewer", "viewer-secret")
            .overrideConfigKey("quarkus.security.users.embedded.roles.viewer", "batch-viewer")
            .overrideConfigKey("quarkus.security.users.embedded.users.operator", "operator-secret")
            .overrideConfigKey("quarkus.security.users.embedded.roles.operator", "batch-operator");

    @Singleton
    static class Nightly {

        /** Never due during the test: at two in the morning, UTC. */
        @Produces
        JobDefinition nightly() {
            return Job.named(JOB).schedule(Schedule.cron("0 0 2 * * ?").zone("UTC").parameter("region", "eu"))
                    .start(tasklet("run", context -> RepeatStatus.FINISHED)).build();
        }
    }

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RepositoryTables tables;

    @Test
    void aViewerReadsTheSchedulesAndAnUnknownJobIsNotFound() {
        List<String> next = as("viewer").get("/batch/schedules").then().statusCode(200)
                .body("job", equalTo(List.of(JOB))).body("[0].cron", equalTo("0 0 2 * * ?"))
                .body("[0].timeZone", equalTo("UTC")).body("[0].parameters.region", equalTo("eu"))
                .body("[0].paused", equalTo(false)).body("[0].nextFireTimes", hasSize(5))
                .extract().path("[0].nextFireTimes");
        Instant first = Instant.parse(next.get(0));
        assertEquals(7_200, first.getEpochSecond() % 86_400, "at 02:00 UTC: " + next);
        assertEquals(86_400, Instant.parse(next.get(1)).getEpochSecond() - first.getEpochSecond(), "daily: " + next);
        as("viewer").get("/batch/schedules/{job}", JOB).then().statusCode(200).body("job", equalTo(JOB))
                .body("paused", equalTo(false)).body("nextFireTimes", hasSize(5));

        as("viewer").get("/batch/schedules/{job}", "noSuchJob").then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("SCHEDULE_NOT_FOUND"));
        as("operator").header("Idempotency-Key", "pause-unknown-" + JOB).post("/batch/schedules/{job}/pause", "noSuchJob")
                .then().statusCode(404).contentType("application/problem+json")
                .body("code", equalTo("SCHEDULE_NOT_FOUND"));
    }

    @Test
    void onlyAnOperatorPausesAndResumesAuditedOnceARequest() throws SQLException {
        as("viewer").header("Idempotency-Key", "viewer-pause-" + JOB).post("/batch/schedules/{job}/pause", JOB).then()
                .statusCode(403);
        assertEquals(0, events("PAUSE"), "a refused pause is no pause");
        as("viewer").get("/batch/schedules/{job}", JOB).then().statusCode(200).body("paused", equalTo(false));

        String key = "pause-" + JOB;
        String answer = as("operator").header("Idempotency-Key", key).post("/batch/schedules/{job}/pause", JOB).then()
                .statusCode(200).body("paused", equalTo(true)).body("pausedBy", equalTo("operator"))
                .body("nextFireTimes", hasSize(0)).extract().asString();
        assertEquals(1, events("PAUSE"));
        // the retry of the same request: the same answer, still one record
        assertEquals(answer, as("operator").header("Idempotency-Key", key).post("/batch/schedules/{job}/pause", JOB)
                .then().statusCode(200).extract().asString());
        assertEquals(1, events("PAUSE"));
        as("viewer").get("/batch/schedules/{job}", JOB).then().statusCode(200).body("paused", equalTo(true));

        as("operator").header("Idempotency-Key", "resume-" + JOB).post("/batch/schedules/{job}/resume", JOB).then()
                .statusCode(200).body("paused", equalTo(false)).body("nextFireTimes", hasSize(5));
        assertEquals(1, events("RESUME"));
        as("viewer").get("/batch/schedules").then().statusCode(200).body("[0].paused", equalTo(false));
    }

    /** The audit records of {@code action} on the job's schedule, as the repository stores them. */
    private long events(String action) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement(tables.substitute(
                        "SELECT count(*) FROM {p}schedule_event WHERE job_name = ? AND action = ?"))) {
            query.setString(1, JOB);
            query.setString(2, action);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private static RequestSpecification as(String user) {
        return given().auth().preemptive().basic(user, user + "-secret");
    }
}
