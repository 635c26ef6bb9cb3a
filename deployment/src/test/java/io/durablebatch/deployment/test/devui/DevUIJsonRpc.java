package io.durablebatch.deployment.test.devui;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Calls a namespace's JSON-RPC methods over the Dev UI's WebSocket, as the card's page does, and
 * returns each answer as soon as it arrives. Quarkus' harness ({@code DevUIJsonRPCTest}) looks for an
 * answer at once and then every three seconds, so that each of its calls costs three seconds at least,
 * and it cannot be told otherwise.
 */
final class DevUIJsonRpc {

    /** Long enough for a call that reads or writes the repository on a loaded machine. */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicInteger ids = new AtomicInteger();
    private final String namespace;
    private final URI socket;

    DevUIJsonRpc(String namespace, int port) {
        this.namespace = namespace;
        this.socket = URI.create("ws://localhost:" + port + "/q/dev-ui/json-rpc-ws");
    }

    /** The method's result, or an assertion error when no answer comes, or one without a result. */
    JsonNode call(String method, Map<String, Object> parameters) throws Exception {
        JsonNode answer = answer(method, parameters, ANSWER_TIMEOUT)
                .orElseThrow(() -> new AssertionError("no answer to " + method + " within " + ANSWER_TIMEOUT));
        JsonNode result = answer.path("result").path("object");
        if (result.isMissingNode()) {
            throw new AssertionError("an answer to " + method + " without a result: " + answer);
        }
        return result;
    }

    /** The whole answer to one call (result or error), or empty when none comes within {@code wait}. */
    Optional<JsonNode> answer(String method, Map<String, Object> parameters, Duration wait) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id)
                .put("method", namespace + "_" + method);
        request.set("params", JSON.valueToTree(parameters));
        Answers answers = new Answers(id);
        WebSocket connection = http.newWebSocketBuilder().buildAsync(socket, answers).get(wait.toMillis(),
                TimeUnit.MILLISECONDS);
        try {
            connection.sendText(JSON.writeValueAsString(request), true).join();
            return Optional.of(answers.answer.get(wait.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException noAnswer) {
            return Optional.empty();
        } finally {
            connection.abort();
        }
    }

    /** Collects the text frames of one connection and keeps the answer that carries the call's id. */
    private static final class Answers implements WebSocket.Listener {

        final CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        private final int id;
        private final StringBuilder message = new StringBuilder();

        Answers(int id) {
            this.id = id;
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            message.append(data);
            if (last) {
                try {
                    JsonNode received = JSON.readTree(message.toString());
                    // the Dev UI also pushes messages of its own on the socket: only the call's answer counts
                    if (received.path("id").asInt(-1) == id) {
                        answer.complete(received);
                    }
                } catch (Exception e) {
                    answer.completeExceptionally(e);
                }
                message.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            answer.completeExceptionally(error);
        }
    }
}
