package io.durablebatch.rest.deployment.test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With the extension and no authentication mechanism at all, every endpoint answers 401 to an
 * anonymous caller and changes nothing: the API is closed until the application says who may use
 * it. (quarkus-security is a dependency of the extension: without it Quarkus REST would not enforce
 * {@code @RolesAllowed} and every endpoint would be open.)
 */
class DenyByDefaultTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest().withApplicationRoot(jar -> jar.addClass(Endpoints.class))
            .overrideConfigKey("quarkus.http.test-port", "0")
            // executions other tests left in the shared database must not be recovered while the rows are counted
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false");

    @Inject
    AgroalDataSource dataSource;

    @Test
    void everyEndpointAnswers401ToAnAnonymousCallerAndChangesNothing() throws Exception {
        Map<String, Long> before = rowCounts();
        assertFalse(Endpoints.all().isEmpty());
        for (Endpoints endpoint : Endpoints.all()) {
            given().contentType("application/json").body("{}").header("Idempotency-Key", "deny-test")
                    .request(endpoint.httpMethod(), endpoint.concrete(1, "job"))
                    .then().statusCode(401).contentType("application/problem+json")
                    .body("code", equalTo("UNAUTHENTICATED"));
        }
        assertEquals(before, rowCounts(), "rows per repository table");
    }

    private Map<String, Long> rowCounts() throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            ResultSet tables = statement.executeQuery(
                    "select table_name from information_schema.tables where table_name like 'dbatch\\_%'");
            List<String> names = new ArrayList<>();
            while (tables.next()) {
                names.add(tables.getString(1));
            }
            for (String name : names) {
                try (ResultSet count = statement.executeQuery("select count(*) from " + name)) {
                    count.next();
                    counts.put(name, count.getLong(1));
                }
            }
        }
        return counts;
    }
}
