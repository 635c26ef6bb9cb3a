package io.durablebatch.it.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * A fuzz test of the operator REST API, driven by the OpenAPI document the application serves: for
 * every operation it sends valid and invalid path values, query values, headers and bodies (huge
 * numbers, dates PostgreSQL cannot hold, nulls, wrong types, long strings, unicode, tampered cursors,
 * JSON that is no JSON), as the four kinds of caller (admin, viewer, anonymous, a wrong password).
 * Every answer must be below 500; every non-2xx a problem document with its status, code and
 * correlation id; no body may show SQL, a PostgreSQL or JDBC message, a Java class or a stack frame
 * (unless the request itself sent that text); a refused call must leave every repository table as it
 * was (row counts and execution versions, read in one statement before and after).
 * <p>
 * Bounded and reproducible: sequential requests over loopback, {@code -Dfuzz.requests} (default
 * 1200) requests or {@code -Dfuzz.seconds} (default 150) seconds, whichever ends first, from the
 * seed {@code -Dfuzz.seed} (default 26). A failure lists every violation with the request that
 * caused it; rerun with the same seed to replay it.
 */
@QuarkusTest
class RestFuzzTest {

    private static final long SEED = Long.getLong("fuzz.seed", 26L);
    private static final int REQUESTS = Integer.getInteger("fuzz.requests", 1200);
    private static final Duration TIME = Duration.ofSeconds(Long.getLong("fuzz.seconds", 150L));
    private static final int MAX_REQUEST_LINE = 3500;

    /** What no answer may show, unless the request sent it (an echoed name is the caller's own text). */
    private static final Pattern INTERNALS = Pattern.compile(String.join("|",
            "\\b(SELECT|UPDATE|INSERT|DELETE)\\b[\\s\\S]{0,400}?\\b(FROM|SET|INTO|WHERE)\\b", "org\\.postgresql",
            "(?i:postgresql|sqlstate|hibernate|jdbc)", "\\bERROR:\\s", "\\bjava\\.[a-z]", "\\bjakarta\\.[a-z]",
            "\\bio\\.(durablebatch|quarkus|vertx|smallrye)\\b", "\\bcom\\.fasterxml", "\\tat [\\w$.]+\\(",
            "\\bat [\\w$.]+\\([\\w$]+\\.java:\\d+\\)", "\\w+(Exception|Error)\\b(?<!\\bError)"));

    private final ObjectMapper json = new ObjectMapper();

    @Inject
    AgroalDataSource dataSource;

    @Inject
    JobRepository repository;

    private Random random;
    private long validId;
    private long validStepId;
    private long validInstanceId;
    private String validCursor;
    private String snapshotSql;

    @Test
    void noInputGetsA5xxOrShowsInternalsAndNoRefusalChangesAnything() throws Exception {
        random = new Random(SEED);
        fixtures();
        JsonNode document = json.readTree(given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
                .extract().asString());
        List<Operation> operations = operations(document);
        assertTrue(operations.size() >= 20, "operations in the OpenAPI document: " + operations.size());

        List<String> violations = new ArrayList<>();
        Map<String, Integer> statuses = new LinkedHashMap<>();
        Instant deadline = Instant.now().plus(TIME);
        int sent = 0;
        while (sent < REQUESTS && Instant.now().isBefore(deadline) && violations.size() < 50) {
            Operation operation = operations.get(sent % operations.size());
            Request request = request(operation, document);
            String before = snapshot();
            Response response = send(request);
            sent++;
            int status = response.statusCode();
            statuses.merge(operation.method + " " + operation.path + " " + status, 1, Integer::sum);
            String body = response.asString();
            String problem = check(request, status, response.contentType(), body);
            if (problem == null && (status < 200 || status >= 300)) {
                String after = snapshot();
                if (!before.equals(after)) {
                    problem = "a refused call changed the tables: " + before + " -> " + after;
                }
            }
            if (problem != null) {
                violations.add(problem + "\n    request: " + request + "\n    answer: " + status + " "
                        + abbreviate(body, 600));
            }
            if (status >= 200 && status < 300 && !operation.method.equals("get")) {
                quiesce();
            }
        }
        System.out.printf("RestFuzzTest: seed %d, %d requests, %d operations%n", SEED, sent, operations.size());
        assertTrue(violations.isEmpty(), violations.size() + " violations (seed " + SEED + "):\n"
                + String.join("\n", violations) + "\nanswers: " + statuses);
        assertTrue(sent >= Math.min(REQUESTS, 200), "requests sent in time: " + sent);
    }

    // What is checked

    private String check(Request request, int status, String contentType, String body) {
        if (status >= 500) {
            return "5xx";
        }
        if (status >= 300 || status < 200) {
            if (contentType == null || !contentType.startsWith("application/problem+json")) {
                return "a non-2xx answer that is no problem document (" + contentType + ")";
            }
            try {
                JsonNode problem = json.readTree(body);
                if (problem.path("status").asInt() != status || problem.path("code").asText().isEmpty()
                        || problem.path("correlationId").asText().isEmpty() || problem.path("detail").isMissingNode()) {
                    return "a problem document without its status, code, detail or correlation id";
                }
            } catch (Exception e) {
                return "a problem document that is no JSON";
            }
        }
        Matcher internal = INTERNALS.matcher(withoutJobFailures(status, body));
        while (internal.find()) {
            if (!request.sent().contains(internal.group())) {
                return "the answer shows internals: '" + internal.group() + "'";
            }
        }
        return null;
    }

    /**
     * A 2xx body without the recorded failures of executions and steps ({@code failure.type} is the
     * exception class the job threw, by design what an operator reads to fix the job); a problem is
     * scanned whole.
     */
    private String withoutJobFailures(int status, String body) {
        if (status >= 300 || !body.startsWith("{") && !body.startsWith("[")) {
            return body;
        }
        try {
            JsonNode tree = json.readTree(body);
            List<JsonNode> objects = new ArrayList<>();
            objects.add(tree);
            while (!objects.isEmpty()) {
                JsonNode node = objects.remove(objects.size() - 1);
                if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
                    object.remove("failure");
                }
                node.forEach(objects::add);
            }
            return json.writeValueAsString(tree);
        } catch (Exception e) {
            return body;
        }
    }

    /** Row counts of every repository table and the sum of the executions' versions, in one statement. */
    private String snapshot() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(snapshotSql)) {
            row.next();
            StringBuilder text = new StringBuilder();
            for (int i = 1; i <= row.getMetaData().getColumnCount(); i++) {
                text.append(row.getMetaData().getColumnLabel(i)).append('=').append(row.getString(i)).append(' ');
            }
            return text.toString().trim();
        }
    }

    /** After an accepted action, waits until no execution it launched is still running (they end at once). */
    private void quiesce() throws Exception {
        Instant until = Instant.now().plusSeconds(20);
        while (Instant.now().isBefore(until)) {
            long running = Rest.count(dataSource, "SELECT count(*) FROM dbatch_job_execution WHERE id > " + validId
                    + " AND status IN ('STARTING', 'STARTED', 'STOPPING')");
            if (running == 0) {
                return;
            }
            Thread.sleep(20);
        }
    }

    // The API as the OpenAPI document describes it

    record Operation(String method, String path, JsonNode spec) {
    }

    record Request(String method, String url, String user, Map<String, String> headers, String contentType, String body) {

        /** Everything the request sent, to tell an echo of it from a leak. */
        String sent() {
            return java.net.URLDecoder.decode(url.replace("+", "%2B"), StandardCharsets.UTF_8) + " " + url + " "
                    + headers + " " + body;
        }

        @Override
        public String toString() {
            return method.toUpperCase(Locale.ROOT) + " " + url + " as " + user + " " + headers + " "
                    + (contentType == null ? "" : contentType + " ") + abbreviate(String.valueOf(body), 400);
        }
    }

    private static List<Operation> operations(JsonNode document) {
        List<Operation> operations = new ArrayList<>();
        document.path("paths").fields().forEachRemaining(path -> {
            if (path.getKey().startsWith("/batch")) {
                path.getValue().fields().forEachRemaining(method -> operations.add(new Operation(method.getKey(),
                        path.getKey(), method.getValue())));
            }
        });
        operations.sort((a, b) -> (a.path + a.method).compareTo(b.path + b.method));
        return operations;
    }

    private Request request(Operation operation, JsonNode document) {
        for (int attempt = 0;; attempt++) {
            boolean shortValues = attempt > 0;
            String path = operation.path;
            StringBuilder query = new StringBuilder();
            Map<String, String> headers = new LinkedHashMap<>();
            for (JsonNode parameter : operation.spec.path("parameters")) {
                String name = parameter.path("name").asText();
                String type = parameter.path("schema").path("type").asText();
                String in = parameter.path("in").asText();
                if (in.equals("path")) {
                    path = path.replace("{" + name + "}", encode(pathValue(name, type, shortValues)));
                } else if (in.equals("query") && random.nextInt(3) > 0) {
                    int repeat = parameter.path("schema").path("type").asText().equals("array") ? 1 + random.nextInt(2) : 1;
                    for (int i = 0; i < repeat; i++) {
                        query.append(query.length() == 0 ? '?' : '&').append(encode(name)).append('=')
                                .append(encode(queryValue(name, type, shortValues)));
                    }
                } else if (in.equals("header") && random.nextInt(3) > 0) {
                    headers.put(name, headerValue(name));
                }
            }
            if (random.nextInt(10) == 0) {
                query.append(query.length() == 0 ? '?' : '&').append("unknown=").append(encode(string(shortValues)));
            }
            String url = path + query;
            if (url.length() > MAX_REQUEST_LINE) {
                continue;
            }
            String contentType = null;
            String body = null;
            if (!operation.method.equals("get") && !operation.method.equals("delete")) {
                contentType = random.nextInt(12) == 0 ? pick("text/plain", "application/xml", "application/json; charset=bogus")
                        : "application/json";
                body = body(operation, document);
            }
            return new Request(operation.method, url, user(operation), headers, contentType, body);
        }
    }

    private Response send(Request request) {
        RequestSpecification spec = switch (request.user) {
            case "anonymous" -> given();
            case "wrong-password" -> given().auth().preemptive().basic(Rest.ADMIN, "guessed");
            default -> Rest.as(request.user);
        };
        spec = spec.urlEncodingEnabled(false);
        for (Map.Entry<String, String> header : request.headers.entrySet()) {
            spec = spec.header(header.getKey(), header.getValue());
        }
        if (request.contentType != null) {
            spec = spec.contentType(request.contentType);
        }
        if (request.body != null) {
            spec = spec.body(request.body.getBytes(StandardCharsets.UTF_8));
        }
        return spec.request(request.method.toUpperCase(Locale.ROOT), request.url);
    }

    private String user(Operation operation) {
        int roll = random.nextInt(20);
        return roll == 0 ? "anonymous"
                : roll == 1 ? "wrong-password"
                        : roll == 2 ? Rest.VIEWER
                                : roll == 3 ? Rest.OUTSIDER
                                        : operation.method.equals("get") && roll < 8 ? Rest.VIEWER : Rest.ADMIN;
    }

    // Values, valid and not

    private String pathValue(String name, String type, boolean shortValues) {
        if (name.equals("job")) {
            return random.nextInt(3) == 0 ? RestProbeJob.NAME
                    : pick("noSuchJob", "importOrders", string(shortValues), "..",
                            "a/b", "SELECT * FROM dbatch_job_instance", " ");
        }
        long valid = name.equals("stepId") ? validStepId : name.contains("instance") ? validInstanceId : validId;
        return random.nextInt(3) == 0 ? Long.toString(valid) : number(shortValues);
    }

    private String queryValue(String name, String type, boolean shortValues) {
        return switch (name) {
            case "createdFrom", "createdBefore", "before" -> date();
            case "cursor" -> cursor();
            case "status" -> pick("FAILED", "completed", "STARTED", "NOPE", "", string(shortValues));
            case "parameters" -> random.nextBoolean() ? parameters().toString() : pick("{", "[]", "null", "42", "{\"a\":");
            case "size", "limit", "after", "instance" -> random.nextInt(3) == 0 ? pick("1", "50", "500", "10000")
                    : number(shortValues);
            default -> type.equals("integer") ? number(shortValues)
                    : random.nextInt(3) == 0 ? RestProbeJob.NAME : string(shortValues);
        };
    }

    private String headerValue(String name) {
        if (name.equals("If-Match")) {
            return pick("\"1\"", "\"0\"", "*", "\"99999999999999999999\"", "W/\"1\"", "1", "", "\"-1\"", "\"1e999\"",
                    "\"" + (1 + random.nextInt(3)) + "\"");
        }
        return pick("key-" + random.nextInt(1000), "k".repeat(100 + random.nextInt(400)), "", " ", "ключ", "a\tb",
                "fuzz-" + UUID.randomUUID());
    }

    private String number(boolean shortValues) {
        return pick("0", "-1", "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1e999999999",
                "1.5", "NaN", "Infinity", "0x10", "", " 1", "１２", shortValues ? "7" : "9".repeat(400), "abc");
    }

    private String date() {
        return pick("2026-12-01T00:00:00Z", "+300000-01-01T00:00:00Z", "-300000-01-01T00:00:00Z",
                "+1000000000-12-31T23:59:59Z", "-1000000000-01-01T00:00:00Z", "0000-01-01T00:00:00Z",
                "9999-12-31T23:59:59.999999999Z", "2026-13-45T25:61:61Z", "2026-12-01", "yesterday", "", "1e999999999");
    }

    private String cursor() {
        if (validCursor == null || random.nextInt(4) == 0) {
            return pick("", "x", "AAAA", "eyJ0IjoxfQ", "%%%", "=" + "A".repeat(300));
        }
        char[] chars = validCursor.toCharArray();
        int changes = 1 + random.nextInt(3);
        for (int i = 0; i < changes; i++) {
            chars[random.nextInt(chars.length)] = "AZaz09-_=+/.".charAt(random.nextInt(12));
        }
        String tampered = new String(chars);
        return pick(tampered, tampered.substring(0, chars.length / 2), validCursor + "A", validCursor);
    }

    private String string(boolean shortValues) {
        return pick("", " ", "ä✓日本語🙂", "\u0000", "'; DROP TABLE dbatch_job_instance; --", "%s%n", "${quarkus.uuid}",
                "<script>x</script>", "null", "a".repeat(shortValues ? 10 : 1000), "../../etc/passwd");
    }

    private Object scalar() {
        return switch (random.nextInt(14)) {
            case 0 -> null;
            case 1 -> random.nextBoolean();
            case 2 -> Long.MAX_VALUE;
            case 3 -> new java.math.BigInteger("9".repeat(1 + random.nextInt(400)));
            case 4 -> new java.math.BigDecimal("1e" + pick("400", "-400", "999999999", "5000"));
            case 5 -> random.nextDouble();
            case 6 -> Map.of("decimal", pick("12.50", "1e400", "1e999999999", "NaN", "Infinity", "-0", "x"));
            case 7 -> Map.of("date", pick("2026-12-01", "+300000-01-01", "2026-02-30", "-999999999-01-01"));
            case 8 -> Map.of("instant", date());
            case 9 -> Map.of("unknownType", "x");
            case 10 -> List.of(1, 2);
            case 11 -> Map.of();
            default -> string(false);
        };
    }

    private Map<String, Object> parameters() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            parameters.put(pick("run", "day", "mode", "", "ä✓", "k".repeat(300), "a.b"), scalar());
        }
        return parameters;
    }

    // Bodies, from the request body's schema

    private String body(Operation operation, JsonNode document) {
        switch (random.nextInt(10)) {
            case 0:
                return pick("", "{", "[]", "null", "\"text\"", "42", "{\"a\":1,}", "\u00ff\u00fe", "[".repeat(2000));
            case 1:
                return "{\"padding\":\"" + "p".repeat(200_000) + "\"}";
            default:
                JsonNode schema = operation.spec.path("requestBody").path("content").path("application/json").path("schema");
                try {
                    return json.writeValueAsString(value(resolve(schema, document), document, 0));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
        }
    }

    private static JsonNode resolve(JsonNode schema, JsonNode document) {
        String ref = schema.path("$ref").asText();
        if (ref.startsWith("#/components/schemas/")) {
            return document.path("components").path("schemas").path(ref.substring("#/components/schemas/".length()));
        }
        return schema;
    }

    private Object value(JsonNode schema, JsonNode document, int depth) {
        if (random.nextInt(8) == 0 || depth > 4) {
            return scalar();
        }
        JsonNode properties = schema.path("properties");
        String type = schema.path("type").asText();
        if (properties.size() > 0) {
            Map<String, Object> object = new LinkedHashMap<>();
            properties.fields().forEachRemaining(property -> {
                if (random.nextInt(6) > 0) {
                    object.put(property.getKey(), value(resolve(property.getValue(), document), document, depth + 1));
                }
            });
            if (random.nextInt(10) == 0) {
                object.put("unexpected", scalar());
            }
            if (object.containsKey("candidates") && random.nextBoolean()) {
                object.put("candidates", candidates());
            }
            return object;
        }
        if (!schema.path("enum").isMissingNode()) {
            return random.nextInt(3) > 0 ? schema.path("enum").get(random.nextInt(schema.path("enum").size())).asText()
                    : string(false);
        }
        return switch (type) {
            case "array" -> {
                List<Object> items = new ArrayList<>();
                int size = random.nextInt(3);
                for (int i = 0; i < size; i++) {
                    items.add(random.nextInt(4) == 0 ? null
                            : value(resolve(schema.path("items"), document), document,
                                    depth + 1));
                }
                yield items;
            }
            case "integer" -> random.nextBoolean() ? (Object) validId : scalar();
            case "string" -> random.nextBoolean() ? pick("FAILED", "ABANDONED", "LEGAL_HOLD", "x") : scalar();
            case "object" -> random.nextBoolean() ? parameters() : scalar();
            default -> random.nextBoolean() ? parameters() : scalar();
        };
    }

    /** Purge candidates: forged, tampered or null; never the fixture's real plan, so nothing is purged by chance. */
    private List<Object> candidates() {
        List<Object> candidates = new ArrayList<>();
        int size = random.nextInt(3);
        for (int i = 0; i < size; i++) {
            Map<String, Object> candidate = new LinkedHashMap<>();
            candidate.put("jobInstanceId", random.nextBoolean() ? validInstanceId : scalar());
            candidate.put("jobName", random.nextBoolean() ? RestProbeJob.NAME : scalar());
            candidate.put("executions", scalar());
            candidate.put("observedVersion", scalar());
            candidate.put("latestStatus", pick("COMPLETED", "FAILED", "NOPE"));
            candidate.put("lastEndedAt", date());
            candidates.add(random.nextInt(5) == 0 ? null : candidate);
        }
        return candidates;
    }

    // Fixtures and helpers

    private void fixtures() throws SQLException {
        JobExecution target = null;
        for (int i = 0; i < 2; i++) {
            target = QuarkusTransaction.requiringNew().call(() -> repository.createJobExecution(
                    JobExecutionRequest.of(repository.selectOrCreateJobInstance(JobInstanceKey.of(
                            JobName.of(RestProbeJob.NAME), Map.of("run", "fuzz-" + UUID.randomUUID()))).instance().id())));
        }
        validId = target.id().value();
        validInstanceId = target.jobInstanceId().value();
        validStepId = Rest.count(dataSource, "SELECT coalesce(max(id), 1) FROM dbatch_step_execution");
        validCursor = Rest.as(Rest.VIEWER).get("/batch/executions?size=1").then().statusCode(200).extract().path("next");
        List<String> tables = new ArrayList<>(Rest.rowCounts(dataSource).keySet());
        snapshotSql = "SELECT " + tables.stream().map(table -> "(SELECT count(*) FROM " + table + ") AS " + table)
                .collect(Collectors.joining(", "))
                + ", (SELECT coalesce(sum(version), 0) FROM dbatch_job_execution) AS execution_versions";
    }

    @SafeVarargs
    private <T> T pick(T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String abbreviate(String text, int length) {
        return text.length() <= length ? text : text.substring(0, length) + "... (" + text.length() + " chars)";
    }
}
