package io.durablebatch.jakarta.runtime.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.batch.runtime.BatchRuntime;

import org.junit.jupiter.api.Test;

/** {@code BatchRuntime.getJobOperator()} finds this runtime, and needs a running application to use it. */
class BatchRuntimeJobOperatorTest {

    @Test
    void theServiceLoaderFindsTheDelegate() {
        assertInstanceOf(BatchRuntimeJobOperator.class, BatchRuntime.getJobOperator());
    }

    @Test
    void withoutARunningApplicationEveryCallIsRefusedClearly() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> BatchRuntime.getJobOperator().getJobNames());
        assertEquals("BatchRuntime.getJobOperator() works inside a running Quarkus application; no application is "
                + "running in this class loader", refused.getMessage());
    }
}
