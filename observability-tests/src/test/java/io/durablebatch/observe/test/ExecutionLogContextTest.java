package io.durablebatch.observe.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * While the kernel runs an execution, every line logged on its threads (the kernel's, and the
 * application's own in a processor, on a partition's worker too) carries the execution's ids as MDC
 * fields of a JSON log line; a step's fields are gone once it ends.
 */
class ExecutionLogContextTest {

    private static final Logger LOG = Logger.getLogger(ExecutionLogContextTest.class);
    private static final Path LOG_FILE = Path.of("target", "execution-log-context.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final QuarkusUnitTest APP = ObservedApp.app()
            .setBeforeAllCustomizer(() -> {
                try {
                    Files.deleteIfExists(LOG_FILE);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            })
            // one kernel thread: the second job runs on the thread the first ran on
            .overrideConfigKey("quarkus.durable-batch.executor.max-concurrency", "1")
            .overrideConfigKey("quarkus.log.file.enabled", "true")
            .overrideConfigKey("quarkus.log.file.path", LOG_FILE.toString())
            .overrideConfigKey("quarkus.log.file.json.enabled", "true");

    @Inject
    JobOperator operator;

    @Inject
    JobRepository repository;

    @Test
    void theLinesOfAnExecutionCarryItsIds() throws Exception {
        JobExecution observed = operator.runAndWait("observed", JobParameters.of("run", UUID.randomUUID().toString()),
                OperatorCall.by("test"));
        assertEquals(ExecutionStatus.COMPLETED, observed.status());
        JobExecution failed = operator.runAndWait("failingOnce", JobParameters.of("run", UUID.randomUUID().toString()),
                OperatorCall.by("test"));
        assertEquals(ExecutionStatus.FAILED, failed.status());
        List<StepExecution> steps = QuarkusTransaction.requiringNew().call(() -> repository.stepExecutions(observed.id()));
        String load = id(steps, "load");
        String execution = Long.toString(observed.id().value());

        List<JsonNode> lines = awaitLines(failed);
        JsonNode order = only(lines, line -> line.path("message").asText().equals("processing order 7"));
        assertEquals("org.acme.orders", order.path("loggerName").asText());
        assertEquals("observed", order.path("mdc").path("jobName").asText());
        assertEquals(execution, order.path("mdc").path("jobExecutionId").asText());
        assertEquals("load", order.path("mdc").path("stepName").asText());
        assertEquals(load, order.path("mdc").path("stepExecutionId").asText());
        assertFalse(order.path("mdc").has("partition"), order.toString());

        Set<String> partitions = new TreeSet<>();
        for (JsonNode line : lines) {
            if (line.path("message").asText().equals("partition item 2")) {
                JsonNode mdc = line.path("mdc");
                assertEquals(execution, mdc.path("jobExecutionId").asText(), line.toString());
                assertEquals("spreadWorker", mdc.path("stepName").asText(), line.toString());
                assertTrue(steps.stream().anyMatch(step -> Long.toString(step.id().value())
                        .equals(mdc.path("stepExecutionId").asText())), line.toString());
                partitions.add(mdc.path("partition").asText());
            }
        }
        assertEquals(Set.of("p0", "p1"), partitions, "each worker's lines name its partition");

        String failedId = Long.toString(failed.id().value());
        JsonNode error = only(lines, line -> line.path("level").asText().equals("ERROR")
                && line.path("message").asText().startsWith("Job 'failingOnce' execution " + failedId + " failed in step"));
        assertEquals("write", error.path("mdc").path("stepName").asText());
        assertEquals(id(QuarkusTransaction.requiringNew().call(() -> repository.stepExecutions(failed.id())), "write"),
                error.path("mdc").path("stepExecutionId")
                        .asText());
        assertEquals(failedId, error.path("mdc").path("jobExecutionId").asText());
        LOG.infof("The JSON line of the failed step: %s", error);

        // the next job on the same thread starts with no step of the one before in its context
        JsonNode started = only(lines, line -> line.path("message").asText()
                .equals("Job 'failingOnce' execution " + failedId + " (attempt 1) started"));
        JsonNode observedStarted = only(lines, line -> line.path("message").asText()
                .equals("Job 'observed' execution " + execution + " (attempt 1) started"));
        assertEquals(observedStarted.path("threadName").asText(), started.path("threadName").asText());
        assertEquals(failedId, started.path("mdc").path("jobExecutionId").asText());
        assertFalse(started.path("mdc").has("stepName"), started.toString());
        assertFalse(started.path("mdc").has("stepExecutionId"), started.toString());
    }

    private static String id(List<StepExecution> steps, String name) {
        return Long.toString(steps.stream().filter(step -> step.stepName().value().equals(name)).findFirst()
                .orElseThrow().id().value());
    }

    private static JsonNode only(List<JsonNode> lines, java.util.function.Predicate<JsonNode> test) {
        List<JsonNode> found = lines.stream().filter(test).toList();
        assertEquals(1, found.size(), found.toString());
        return found.get(0);
    }

    /** The log file's lines once the failed execution's end is in it (the file handler may lag). */
    private static List<JsonNode> awaitLines(JobExecution last) throws Exception {
        String end = "Job 'failingOnce' execution " + last.id().value() + " ended FAILED";
        for (int i = 0; i < 200; i++) {
            List<JsonNode> lines = new ArrayList<>();
            for (String line : Files.readAllLines(LOG_FILE)) {
                if (!line.isBlank()) {
                    lines.add(JSON.readTree(line));
                }
            }
            if (lines.stream().anyMatch(line -> line.path("message").asText().startsWith(end))) {
                return lines;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no line '" + end + "' in " + LOG_FILE);
    }
}
