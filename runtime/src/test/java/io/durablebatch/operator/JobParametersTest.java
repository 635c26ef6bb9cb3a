package io.durablebatch.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.JobName;

/** Identifying and non-identifying parameters: one namespace to read, two roles. */
class JobParametersTest {

    private final JobParameters parameters = JobParameters.of("file", "orders.csv").withNonIdentifying("threads", 4L);

    @Test
    void onlyTheIdentifyingOnesKeyTheInstance() {
        assertEquals(JobParameters.of("file", "orders.csv").keyFor(JobName.of("import")),
                parameters.keyFor(JobName.of("import")));
        assertEquals(ExecutionParameters.of(Map.of("threads", 4L)), parameters.executionParameters());
    }

    @Test
    void aStepReadsBoth() {
        assertEquals("orders.csv", parameters.string("file"));
        assertEquals(4L, parameters.longValue("threads"));
        var missing = assertThrows(IllegalArgumentException.class, () -> parameters.string("day"));
        assertTrue(missing.getMessage().contains("[file]") && missing.getMessage().contains("not identifying, [threads]"),
                missing.getMessage());
    }

    @Test
    void aNameIsIdentifyingOrNotNeverBoth() {
        var refusal = assertThrows(IllegalArgumentException.class, () -> parameters.withNonIdentifying("file", "x.csv"));
        assertTrue(refusal.getMessage().contains("'file' is given twice"), refusal.getMessage());
        assertThrows(IllegalArgumentException.class, () -> parameters.with("threads", 8L));
        assertThrows(IllegalArgumentException.class, () -> parameters.withNonIdentifying("threads", 8L));
    }
}
