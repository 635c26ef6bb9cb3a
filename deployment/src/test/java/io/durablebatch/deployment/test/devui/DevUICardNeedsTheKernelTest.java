package io.durablebatch.deployment.test.devui;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.devui.tests.DevUIJsonRPCTest;
import io.quarkus.test.QuarkusDevModeTest;

/** Without the kernel there is no card: its JSON-RPC service is not registered, so the call has no answer. */
class DevUICardNeedsTheKernelTest extends DevUIJsonRPCTest {

    static final int PORT = DurableBatchDevUIJsonRPCTest.freePort();

    @RegisterExtension
    static final QuarkusDevModeTest DEV = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addAsResource(new StringAsset("""
                    quarkus.http.port=%d
                    quarkus.durable-batch.kernel.enabled=false
                    """.formatted(PORT) + DurableBatchDevUIJsonRPCTest.datasource()), "application.properties"));

    DevUICardNeedsTheKernelTest() {
        super(DurableBatchDevUIJsonRPCTest.NAMESPACE, "http://localhost:" + PORT);
    }

    @Test
    void theServiceIsAbsent() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> executeJsonRPCMethod("jobCount", Map.of()));
        // the harness gives up after ten tries three seconds apart: the call has no answer
        assertTrue(e.getMessage().contains("message not returned"), e::toString);
    }
}
