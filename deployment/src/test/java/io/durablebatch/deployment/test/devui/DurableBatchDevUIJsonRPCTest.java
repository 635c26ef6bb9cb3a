package io.durablebatch.deployment.test.devui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.QuarkusDevModeTest;

/**
 * The Dev UI card's JSON-RPC service, called as the card calls it, in a dev-mode application on
 * the tests' PostgreSQL: definitions with their flow graph, executions with progress, the
 * drill-down, and the actions start, stop, restart and recover, whose refusals are answers naming
 * the repository's error code and change nothing.
 */
class DurableBatchDevUIJsonRPCTest {

    /** The card's Dev UI namespace: the runtime artifact's id. */
    static final String NAMESPACE = "quarkus-durable-batch";

    /** The dev-mode application's own port: dev mode ignores the tests' random port. */
    static final int PORT = freePort();

    @RegisterExtension
    static final QuarkusDevModeTest DEV = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(DevUIJobs.class)
                    .addAsResource(new StringAsset("quarkus.http.port=" + PORT + "\n" + datasource()),
                            "application.properties"));

    private final DevUIJsonRpc devUi = new DevUIJsonRpc(NAMESPACE, PORT);

    /**
     * The tests' PostgreSQL, given to the build as system properties, written out for the dev-mode
     * application (which reads its own application.properties, and no Dev Services).
     */
    static String datasource() {
        return """
                quarkus.datasource.db-kind=postgresql
                quarkus.datasource.devservices.enabled=false
                quarkus.datasource.jdbc.url=%s
                quarkus.datasource.username=%s
                quarkus.datasource.password=%s
                """.formatted(System.getProperty("quarkus.datasource.jdbc.url"),
                System.getProperty("quarkus.datasource.username"), System.getProperty("quarkus.datasource.password"));
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /*
     * Dev mode starts the application anew for every test method (30 to 50 s here): the rules are
     * grouped in two methods, one for what the card reads and one for what it does, each rule in a
     * method of its own.
     */

    @Test
    void theCardReadsDefinitionsExecutionsStepsAndPartitions() throws Exception {
        theDefinitionsShowTheFlowGraphOfATwoStepJobWithADecider();
        aStartedExecutionIsListedAndItsDrillDownShowsTheStepsWithTheirCounters();
        theDrillDownPagesThePartitionsOfAPartitionedStep();
    }

    @Test
    void theCardsActionsAnswerRefusalsWithTheirErrorCodes() throws Exception {
        aRunningExecutionShowsItsProgressRefusesRecoveryWhileItsLeaseIsLiveAndStops();
        aFailedExecutionIsRestartedFromTheCard();
        aRefusedActionIsAnAnswerNamingTheErrorCodeAndChangesNothing();
    }

    private void theDefinitionsShowTheFlowGraphOfATwoStepJobWithADecider() throws Exception {
        JsonNode routed = find(call("jobs", Map.of()), job -> job.get("name").asText().equals("routed"));
        assertEquals("1", routed.get("revision").asText());
        assertEquals(64, routed.get("fingerprint").asText().length());
        assertEquals("measure", routed.get("startNode").asText());
        assertTrue(absent(routed, "restartOnOwnerLoss"));
        assertEquals(List.of("load:chunk", "measure:tasklet", "route:decision"), texts(routed.get("nodes"),
                node -> node.get("id").asText() + ":" + node.get("kind").asText()));
        assertTrue(find(routed.get("nodes"), node -> node.get("id").asText().equals("measure")).get("start").asBoolean());
        List<String> transitions = texts(routed.get("transitions"), t -> t.get("from").asText() + " " + t.get("on").asText()
                + " " + t.get("kind").asText() + " " + (absent(t, "to") ? "-" : t.get("to").asText()));
        assertTrue(transitions.contains("route LOAD NEXT load"), transitions::toString);
        assertTrue(transitions.contains("route SKIP END -"), transitions::toString);
        assertTrue(transitions.stream().anyMatch(t -> t.startsWith("measure ") && t.endsWith(" NEXT route")),
                transitions::toString);
        assertEquals(2, call("jobCount", Map.of()).asInt());
    }

    private void aStartedExecutionIsListedAndItsDrillDownShowsTheStepsWithTheirCounters() throws Exception {
        long id = started(call("start", Map.of("job", "routed", "parameters", parameters(Map.of("items", 50)))));
        JsonNode detail = awaitEnd(id);
        assertEquals("COMPLETED", detail.get("execution").get("status").asText());
        assertEquals(50, detail.get("execution").get("readCount").asLong());
        assertEquals(50, detail.get("execution").get("writeCount").asLong());

        JsonNode listed = call("executions", Map.of("job", "routed", "after", "", "size", 500)).get("items");
        JsonNode row = find(listed, execution -> execution.get("id").asLong() == id);
        assertEquals("routed", row.get("jobName").asText());
        assertEquals("COMPLETED", row.get("status").asText());
        List<Long> ids = new ArrayList<>();
        listed.forEach(execution -> ids.add(execution.get("id").asLong()));
        assertEquals(ids.stream().sorted((a, b) -> Long.compare(b, a)).toList(), ids, "newest first");

        assertEquals(List.of("measure", "load"), texts(detail.get("steps"), step -> step.get("name").asText()));
        JsonNode load = detail.get("steps").get(1);
        assertEquals("COMPLETED", load.get("status").asText());
        assertEquals(50, load.get("readCount").asLong());
        assertEquals(50, load.get("writeCount").asLong());
        assertTrue(load.get("commitCount").asLong() >= 5);
        assertFalse(load.get("partitioned").asBoolean());
        assertTrue(absent(load, "progress"), "no progress for an ended step");
        JsonNode decision = find(detail.get("decisions"), d -> d.get("from").asText().equals("route"));
        assertEquals("LOAD", decision.get("outcome").asText());
        assertEquals("load", decision.get("to").asText());
        assertEquals("50", detail.get("parameters").get("items").asText());
    }

    private void theDrillDownPagesThePartitionsOfAPartitionedStep() throws Exception {
        long id = started(call("start", Map.of("job", "spread", "parameters", Map.of("run", UUID.randomUUID().toString()))));
        JsonNode detail = awaitEnd(id);
        assertEquals("COMPLETED", detail.get("execution").get("status").asText());
        JsonNode parent = find(detail.get("steps"), step -> step.get("partitioned").asBoolean());
        assertEquals("fan", parent.get("name").asText());
        assertEquals(15, parent.get("writeCount").asLong(), "the parent sums its three workers");
        assertEquals(15, detail.get("execution").get("writeCount").asLong(), "the execution counts each item once");
        long parentId = parent.get("id").asLong();

        JsonNode first = call("partitions", Map.of("stepExecutionId", parentId, "after", "", "size", 2));
        assertEquals(List.of("part-1", "part-2"), texts(first.get("items"), p -> p.get("key").asText()));
        JsonNode second = call("partitions", Map.of("stepExecutionId", parentId, "after", first.get("next").asText(),
                "size", 2));
        assertEquals(List.of("part-3"), texts(second.get("items"), p -> p.get("key").asText()));
        assertTrue(absent(second, "next"));
        JsonNode partition = second.get("items").get(0);
        assertEquals("COMPLETED", partition.get("status").asText());
        assertEquals(5, partition.get("writeCount").asLong());
    }

    private void aRunningExecutionShowsItsProgressRefusesRecoveryWhileItsLeaseIsLiveAndStops() throws Exception {
        long id = started(call("start", Map.of("job", "routed",
                "parameters", parameters(Map.of("items", 20_000, "pauseMs", 20)))));
        JsonNode running = awaitDetail(id, d -> d.get("steps").size() == 2
                && d.get("steps").get(1).get("readCount").asLong() > 0, "the chunk step committed a chunk");
        JsonNode progress = running.get("steps").get(1).get("progress");
        assertEquals(20_000, progress.get("size").asLong());
        assertTrue(progress.get("percent").asDouble() > 0 && progress.get("percent").asDouble() < 100, progress::toString);
        assertTrue(progress.get("etaSeconds").asLong() > 0, progress::toString);
        JsonNode row = find(call("executions", Map.of("job", "routed", "after", "", "size", 500)).get("items"),
                execution -> execution.get("id").asLong() == id);
        assertEquals("load", row.get("progress").get("step").asText());
        assertTrue(running.get("ownership").get("leaseLive").asBoolean());

        long version = running.get("execution").get("version").asLong();
        JsonNode refused = call("recover", Map.of("id", id, "resolution", "FAILED", "observedVersion", version));
        assertRefused("EXECUTION_LEASE_LIVE", refused);
        JsonNode after = call("execution", Map.of("id", id));
        assertEquals("STARTED", after.get("execution").get("status").asText());
        assertTrue(absent(after, "recovery"), "nothing was recovered");

        JsonNode stopped = call("stop", Map.of("id", id));
        assertTrue(stopped.get("success").asBoolean(), stopped::toString);
        JsonNode ended = awaitEnd(id);
        assertEquals("STOPPED", ended.get("execution").get("status").asText());
        assertEquals("dev-ui", ended.get("ownership").get("stopRequestedBy").asText());
        JsonNode stopRequest = find(ended.get("audit"), record -> record.get("action").asText().equals("STOP"));
        assertEquals("dev-ui", stopRequest.get("actor").asText());
        assertEquals(id, stopRequest.get("execution").asLong());
        long written = ended.get("steps").get(1).get("writeCount").asLong();
        assertTrue(written > 0 && written < 20_000, "stopped mid-run after " + written);
    }

    private void aFailedExecutionIsRestartedFromTheCard() throws Exception {
        long id = started(call("start", Map.of("job", "routed",
                "parameters", parameters(Map.of("items", 30, "failOnce", true)))));
        JsonNode failed = awaitEnd(id);
        assertEquals("FAILED", failed.get("execution").get("status").asText());
        assertTrue(failed.get("execution").get("failure").asText().contains("fails"));

        long restartedId = started(call("restart", Map.of("id", id)));
        JsonNode restarted = awaitEnd(restartedId);
        assertEquals("COMPLETED", restarted.get("execution").get("status").asText());
        assertEquals(2, restarted.get("execution").get("attempt").asInt());
        assertEquals(failed.get("execution").get("instanceId").asLong(), restarted.get("execution").get("instanceId").asLong());
    }

    private void aRefusedActionIsAnAnswerNamingTheErrorCodeAndChangesNothing() throws Exception {
        Map<String, Object> parameters = parameters(Map.of("route", "SKIP"));
        long id = started(call("start", Map.of("job", "routed", "parameters", parameters)));
        assertEquals("COMPLETED", awaitEnd(id).get("execution").get("status").asText());
        JsonNode before = call("executions", Map.of("job", "routed", "after", "", "size", 500));

        assertRefused("INSTANCE_COMPLETE", call("start", Map.of("job", "routed", "parameters", parameters)));
        assertRefused("INSTANCE_COMPLETE", call("restart", Map.of("id", id)));
        assertRefused("JOB_EXECUTION_NOT_FOUND", call("stop", Map.of("id", Long.MAX_VALUE)));
        assertRefused("BAD_REQUEST", call("recover", Map.of("id", id, "resolution", "MAYBE", "observedVersion", 1)));
        JsonNode unknownJob = call("start", Map.of("job", "nothing", "parameters", Map.of()));
        assertFalse(unknownJob.get("success").asBoolean());

        assertEquals(before, call("executions", Map.of("job", "routed", "after", "", "size", 500)), "nothing changed");
    }

    private static Map<String, Object> parameters(Map<String, Object> given) {
        Map<String, Object> parameters = new HashMap<>(Map.of("run", UUID.randomUUID().toString(), "route", "LOAD",
                "items", 10));
        parameters.putAll(given);
        return parameters;
    }

    /** Whether the answer has no value for {@code field}: the Dev UI leaves out absent (null) fields. */
    private static boolean absent(JsonNode node, String field) {
        return node.path(field).isMissingNode() || node.path(field).isNull();
    }

    private JsonNode call(String method, Map<String, Object> parameters) throws Exception {
        return devUi.call(method, parameters);
    }

    private static long started(JsonNode result) {
        assertTrue(result.get("success").asBoolean(), result::toString);
        return result.get("executionId").asLong();
    }

    private static void assertRefused(String error, JsonNode result) {
        assertFalse(result.get("success").asBoolean(), result::toString);
        assertEquals(error, result.get("error").asText(), result::toString);
        assertFalse(result.get("message").asText().isBlank());
    }

    private JsonNode awaitEnd(long id) throws Exception {
        return awaitDetail(id, detail -> !List.of("STARTING", "STARTED", "STOPPING")
                .contains(detail.get("execution").get("status").asText()), "the execution ended");
    }

    private JsonNode awaitDetail(long id, Predicate<JsonNode> condition, String what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            JsonNode detail = call("execution", Map.of("id", id));
            if (condition.test(detail)) {
                return detail;
            }
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what + ": " + detail);
            Thread.sleep(100);
        }
    }

    private static JsonNode find(JsonNode array, Predicate<JsonNode> condition) {
        for (JsonNode item : array) {
            if (condition.test(item)) {
                return item;
            }
        }
        throw new AssertionError("none of " + array + " matches");
    }

    private static List<String> texts(JsonNode array, Function<JsonNode, String> text) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(text.apply(item)));
        return texts;
    }
}
