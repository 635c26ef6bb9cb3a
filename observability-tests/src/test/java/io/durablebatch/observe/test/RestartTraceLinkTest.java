package io.durablebatch.observe.test;

import static io.durablebatch.job.Steps.tasklet;
import static io.durablebatch.observe.test.Spans.attribute;
import static io.durablebatch.observe.test.Spans.awaitSpan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.control.OwnerToken;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A restart or an automatic recovery links to the span of the attempt it replaces whatever process
 * ran that attempt: each job span's trace context is kept with its execution. The attempts of
 * "another process" here are rows whose trace context was written as that process would have
 * written it, for spans this process never saw.
 */
class RestartTraceLinkTest extends TracedRepositoryTest {

    private static final AttributeKey<String> LINK = AttributeKey.stringKey("durablebatch.link");

    @RegisterExtension
    static final QuarkusUnitTest APP = ObservedApp
            .app(Spans.class, LostJobs.class, TracedRepositoryTest.class, TraceParents.class)
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "50")
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "true")
            .overrideConfigKey("quarkus.durable-batch.lease.duration", "2s")
            .overrideConfigKey("quarkus.durable-batch.lease.sweep-interval", "200ms");

    /** A job restarted once, automatically, when the process that ran it is lost. */
    @Singleton
    static class LostJobs {
        @Produces
        JobDefinition lostOnce() {
            return Job.named("lostOnce").restartOnOwnerLoss(1)
                    .start(tasklet("finish", context -> RepeatStatus.FINISHED))
                    .build();
        }
    }

    @Test
    void aRestartLinksToTheSpanRecordedForTheAttemptItRestarts() throws Exception {
        JobExecution failed = operator.runAndWait("failingOnce", JobParameters.of("run", UUID.randomUUID().toString()),
                OperatorCall.by("test"));
        assertEquals(ExecutionStatus.FAILED, failed.status());
        SpanData first = job(awaitSpan(exporter, span -> span.getName().equals("job failingOnce")), "failingOnce");
        assertEquals("00-" + first.getTraceId() + "-" + first.getSpanId() + "-01",
                TraceParents.read(dataSource, "dbatch_job_execution", failed.id().value()),
                "its job span's trace context is kept with the execution");

        // as if another process had run it: a span this process never saw
        TraceParents.Written other = writeTraceParentOfAnotherProcess(failed.id());
        exporter.reset();
        JobExecution restarted = operator.await(operator.restart(failed.id(), OperatorCall.by("test")),
                Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        SpanData second = job(awaitSpan(exporter, span -> span.getName().equals("job failingOnce")), "failingOnce");
        assertEquals(2, attribute(second, "durablebatch.job.attempt"));
        LinkData restarts = restartsLink(second);
        assertEquals(other.traceId(), restarts.getSpanContext().getTraceId(),
                "linked to the stored span, not the one seen here");
        assertEquals(other.spanId(), restarts.getSpanContext().getSpanId());
        assertNotEquals(first.getSpanId(), restarts.getSpanContext().getSpanId());
    }

    @Test
    void anAutomaticRecoveryLinksToTheSpanOfTheLostAttempt() throws Exception {
        JobDefinition definition = registry.get("lostOnce");
        // an attempt claimed and started by a process that then died: its lease runs out in 2 s
        JobExecution lost = QuarkusTransaction.requiringNew().call(() -> {
            JobInstanceId instance = repository.selectOrCreateJobInstance(JobParameters.of("run",
                    UUID.randomUUID().toString()).keyFor(JobName.of("lostOnce"))).instance().id();
            JobExecution created = repository.createJobExecution(JobExecutionRequest.of(instance)
                    .definedBy(definition.identity()));
            JobExecution claimed = repository.claimExecutionOwner(created.id(), created.version(),
                    OwnerToken.of("dead-node/" + created.id().value()), Instant.now());
            return repository.transitionJobExecution(claimed.id(), claimed.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        });
        TraceParents.Written other = writeTraceParentOfAnotherProcess(lost.id());

        SpanData restart = job(awaitSpan(exporter, span -> span.getName().equals("job lostOnce")), "lostOnce");
        assertEquals(lost.jobInstanceId().value(), attribute(restart, "durablebatch.job.instance.id"));
        assertEquals(2, attribute(restart, "durablebatch.job.attempt"), "restarted by the sweeper");
        LinkData restarts = restartsLink(restart);
        assertEquals(other.traceId(), restarts.getSpanContext().getTraceId(), "linked to the lost attempt's span");
        assertEquals(other.spanId(), restarts.getSpanContext().getSpanId());
        assertEquals("restarts", restarts.getAttributes().get(LINK));
    }

    private static SpanData job(List<SpanData> spans, String name) {
        return spans.stream().filter(span -> span.getName().equals("job " + name)).findFirst().orElseThrow();
    }

    private static LinkData restartsLink(SpanData job) {
        return job.getLinks().stream().filter(link -> "restarts".equals(link.getAttributes().get(LINK))).findFirst()
                .orElseThrow(() -> new AssertionError("no restarts link: " + job.getLinks()));
    }

    private TraceParents.Written writeTraceParentOfAnotherProcess(JobExecutionId id) throws SQLException {
        return TraceParents.writeOfAnotherProcess(dataSource, "dbatch_job_execution", id.value());
    }
}
