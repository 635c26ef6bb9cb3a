package io.durablebatch.deployment.test.devui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.QuarkusDevModeTest;

/**
 * Without the kernel there is no card: its JSON-RPC service is not registered, so the Dev UI answers
 * a call of it with JSON-RPC's "method not found".
 */
class DevUICardNeedsTheKernelTest {

    static final int PORT = DurableBatchDevUIJsonRPCTest.freePort();

    @RegisterExtension
    static final QuarkusDevModeTest DEV = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addAsResource(new StringAsset("""
                    quarkus.http.port=%d
                    quarkus.durable-batch.kernel.enabled=false
                    """.formatted(PORT) + DurableBatchDevUIJsonRPCTest.datasource()), "application.properties"));

    private final DevUIJsonRpc devUi = new DevUIJsonRpc(DurableBatchDevUIJsonRPCTest.NAMESPACE, PORT);

    @Test
    void theServiceIsAbsent() throws Exception {
        JsonNode answer = devUi.answer("jobCount", Map.of(), DevUIJsonRpc.ANSWER_TIMEOUT).orElseThrow();
        // JSON-RPC's "method not found"
        assertEquals(-32601, answer.path("error").path("code").asInt(), answer::toString);
        assertTrue(answer.path("result").isMissingNode(), answer::toString);
    }
}
