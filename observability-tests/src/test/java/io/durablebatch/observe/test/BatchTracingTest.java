package io.durablebatch.observe.test;

import static io.durablebatch.observe.test.Spans.attribute;
import static io.durablebatch.observe.test.Spans.awaitSpan;
import static io.durablebatch.observe.test.Spans.childrenOf;
import static io.durablebatch.observe.test.Spans.text;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With OpenTelemetry, each job execution is a trace of its own: a span for the execution, a child per
 * step attempt, per partition worker (under its partitioned step) and per committed chunk; linked to
 * the span of the request that launched it, and a restart to the execution it restarts.
 */
class BatchTracingTest {

    private static final Logger LOG = Logger.getLogger(BatchTracingTest.class);

    @RegisterExtension
    static final QuarkusUnitTest APP = ObservedApp.app(LaunchResource.class, Spans.class)
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "50");

    @Inject
    InMemorySpanExporter exporter;

    @Inject
    JobOperator operator;

    @BeforeEach
    void reset() {
        exporter.reset();
    }

    @Test
    void aLaunchFromARequestIsATraceOfItsOwnLinkedToTheRequest() throws Exception {
        String id = given().post("/launch/observed/" + UUID.randomUUID()).then().statusCode(200).extract().asString();
        JobExecution ended = operator.await(JobExecutionId.of(Long.parseLong(id)), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, ended.status());

        List<SpanData> spans = awaitSpan(exporter, span -> span.getName().equals("job observed"));
        SpanData request = spans.stream().filter(span -> span.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
        SpanData job = spans.stream().filter(span -> span.getName().equals("job observed")).findFirst().orElseThrow();
        assertNotEquals(request.getTraceId(), job.getTraceId(), "a trace of its own");
        assertFalse(job.getParentSpanContext().isValid(), "the root of its trace");
        LinkData launchedBy = job.getLinks().get(0);
        assertEquals(request.getSpanContext(), launchedBy.getSpanContext(), "linked to the request's span");
        assertEquals("launched-by", launchedBy.getAttributes().get(AttributeKey.stringKey("durablebatch.link")));
        assertEquals(ended.id().value(), attribute(job, "durablebatch.job.execution.id"));
        assertEquals(ended.jobInstanceId().value(), attribute(job, "durablebatch.job.instance.id"));
        assertEquals(1, attribute(job, "durablebatch.job.attempt"));
        assertEquals("COMPLETED", text(job, "durablebatch.status"));

        List<SpanData> steps = childrenOf(spans, job);
        assertEquals(List.of("step load", "step spread"), steps.stream().map(SpanData::getName).toList());
        SpanData load = steps.get(0);
        assertEquals(25, attribute(load, "durablebatch.items.read"));
        assertEquals(3, attribute(load, "durablebatch.commits"));
        List<SpanData> chunks = childrenOf(spans, load);
        assertEquals(List.of("chunk load", "chunk load", "chunk load"), chunks.stream().map(SpanData::getName).toList());
        assertEquals(List.of(10L, 10L, 5L), chunks.stream().map(chunk -> attribute(chunk, "durablebatch.items.read"))
                .toList());
        for (SpanData chunk : chunks) {
            assertEquals("chunk.transaction", chunk.getEvents().get(0).getName());
            assertTrue(chunk.getStartEpochNanos() <= chunk.getEvents().get(0).getEpochNanos()
                    && chunk.getEvents().get(0).getEpochNanos() <= chunk.getEndEpochNanos(), "its transaction inside it");
        }

        List<SpanData> workers = childrenOf(spans, steps.get(1));
        assertEquals(2, workers.size(), "one span per partition worker, under its partitioned step");
        for (SpanData worker : workers) {
            assertEquals("partition spreadWorker", worker.getName());
            assertTrue(text(worker, "durablebatch.partition.key") != null, worker.toString());
            assertEquals(3, attribute(worker, "durablebatch.items.written"));
            assertEquals(List.of("chunk spreadWorker"), childrenOf(spans, worker).stream().map(SpanData::getName)
                    .toList());
        }
        LOG.infof("The trace of job execution %s:%n%s", ended.id(), Spans.tree(spans, job));
    }

    @Test
    void aFailedStepRecordsItsErrorAndItsRestartLinksToTheExecutionItRestarts() throws Exception {
        JobParameters run = JobParameters.of("run", UUID.randomUUID().toString());
        JobExecution failed = operator.runAndWait("failingOnce", run, OperatorCall.by("test"));
        assertEquals(ExecutionStatus.FAILED, failed.status());
        List<SpanData> spans = awaitSpan(exporter, span -> span.getName().equals("job failingOnce"));
        SpanData first = spans.stream().filter(span -> span.getName().equals("job failingOnce")).findFirst()
                .orElseThrow();
        assertEquals(StatusCode.ERROR, first.getStatus().getStatusCode());
        SpanData step = childrenOf(spans, first).get(0);
        assertEquals(StatusCode.ERROR, step.getStatus().getStatusCode());
        assertEquals("FAILED", text(step, "durablebatch.status"));
        assertTrue(step.getEvents().stream().anyMatch(event -> event.getName().equals("exception")
                && event.getAttributes().get(AttributeKey.stringKey("exception.message")).contains("item 8")),
                step.getEvents().toString());
        assertEquals(1, childrenOf(spans, step).size(), "the one chunk that committed before the failure");
        LOG.infof("The trace of failed job execution %s:%n%s", failed.id(), Spans.tree(spans, first));

        exporter.reset();
        JobExecution restarted = operator.await(operator.restart(failed.id(), OperatorCall.by("test")),
                Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        spans = awaitSpan(exporter, span -> span.getName().equals("job failingOnce"));
        SpanData second = spans.stream().filter(span -> span.getName().equals("job failingOnce")).findFirst()
                .orElseThrow();
        assertEquals(2, attribute(second, "durablebatch.job.attempt"));
        LinkData restarts = second.getLinks().stream().filter(link -> "restarts".equals(link.getAttributes()
                .get(AttributeKey.stringKey("durablebatch.link")))).findFirst().orElseThrow();
        // as the repository kept it: the same trace and span, read back as a remote context
        assertEquals(first.getTraceId(), restarts.getSpanContext().getTraceId(), "linked to the execution it restarts");
        assertEquals(first.getSpanId(), restarts.getSpanContext().getSpanId());
        assertNotEquals(first.getTraceId(), second.getTraceId());
    }
}
