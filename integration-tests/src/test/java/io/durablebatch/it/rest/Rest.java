package io.durablebatch.it.rest;

import static io.restassured.RestAssured.given;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import javax.sql.DataSource;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;

import io.durablebatch.rest.runtime.ApiResource;
import io.durablebatch.rest.runtime.DurableBatchRestBuildTimeConfig;
import io.restassured.specification.RequestSpecification;

/** The REST tests' callers, endpoints (read from the resources by reflection) and database counts. */
final class Rest {

    static final String VIEWER = "viewer";
    static final String OPERATOR = "operator";
    static final String ADMIN = "admin";
    static final String OUTSIDER = "outsider";

    private Rest() {
    }

    /** A request by one of the embedded users of the test profile, over HTTP with basic authentication. */
    static RequestSpecification as(String user) {
        return given().auth().preemptive().basic(user, user + "-secret");
    }

    /** One endpoint of the API. */
    record Endpoint(String httpMethod, String path, Set<String> roles) {

        String concrete(long id) {
            return path.replaceAll("\\{(id|stepId)\\}", Long.toString(id)).replace("{job}", RestProbeJob.NAME);
        }
    }

    private static final Map<Class<? extends Annotation>, String> VERBS = Map.of(GET.class, "GET", POST.class, "POST",
            PUT.class, "PUT", DELETE.class, "DELETE");

    /** Every endpoint of the resource, with the default names of the roles it allows. */
    static List<Endpoint> endpoints() {
        String root = DurableBatchRestBuildTimeConfig.DEFAULT_ROOT_PATH;
        List<Endpoint> endpoints = new ArrayList<>();
        for (Method method : ApiResource.RESOURCES.stream().flatMap(r -> Arrays.stream(r.getDeclaredMethods())).toList()) {
            VERBS.forEach((annotation, verb) -> {
                if (method.isAnnotationPresent(annotation)) {
                    Set<String> roles = Set.of(Arrays.stream(method.getAnnotation(RolesAllowed.class).value())
                            .map(expression -> expression.substring(expression.indexOf(':') + 1, expression.length() - 1))
                            .toArray(String[]::new));
                    endpoints.add(new Endpoint(verb, root + method.getAnnotation(Path.class).value(), roles));
                }
            });
        }
        endpoints.sort(Comparator.comparing(Endpoint::path).thenComparing(Endpoint::httpMethod));
        return endpoints;
    }

    /** The rows of every repository table, by table. */
    static Map<String, Long> rowCounts(DataSource dataSource) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet names = statement.executeQuery("SELECT table_name FROM information_schema.tables "
                    + "WHERE table_schema = current_schema() AND table_name LIKE 'dbatch\\_%'")) {
                while (names.next()) {
                    tables.add(names.getString(1));
                }
            }
            for (String table : tables) {
                try (ResultSet count = statement.executeQuery("SELECT count(*) FROM " + table)) {
                    count.next();
                    counts.put(table, count.getLong(1));
                }
            }
        }
        return counts;
    }

    static long count(DataSource dataSource, String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    /** Waits until the execution has {@code status}, reading it over the API. */
    static void awaitStatus(long execution, String status) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        String seen = null;
        while (Instant.now().isBefore(deadline)) {
            seen = as(VIEWER).get("/batch/executions/{id}", execution).then().statusCode(200).extract()
                    .path("execution.status");
            if (status.equals(seen)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("execution " + execution + " is " + seen + ", not " + status + ", after 60 s");
    }
}
