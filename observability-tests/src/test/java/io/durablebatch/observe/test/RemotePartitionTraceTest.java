package io.durablebatch.observe.test;

import static io.durablebatch.observe.test.Spans.awaitSpan;
import static io.durablebatch.observe.test.Spans.childrenOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A partition run by a remote worker (another process than its partitioned step's) is in the trace
 * of that step: the step span's trace context is kept with the parent step attempt, and the remote
 * worker's partition span is its child. The parent of "another process" here is a row whose trace
 * context was written as that process would have written it, for a span this process never saw.
 */
class RemotePartitionTraceTest extends TracedRepositoryTest {

    private static final OwnerToken OTHER_PROCESS = OwnerToken.of("other-node/7ace");

    @RegisterExtension
    static final QuarkusUnitTest APP = ObservedApp.app(Spans.class, TracedRepositoryTest.class, TraceParents.class)
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "50")
            .overrideConfigKey("quarkus.durable-batch.partitions.remote-workers.enabled", "true")
            .overrideConfigKey("quarkus.durable-batch.partitions.remote-workers.poll-interval", "100ms");

    @Test
    void aPartitionedStepKeepsItsSpansTraceContextForItsWorkers() throws Exception {
        JobExecution run = operator.runAndWait("observed", JobParameters.of("run", UUID.randomUUID().toString()),
                OperatorCall.by("test"));
        assertEquals(ExecutionStatus.COMPLETED, run.status());
        List<SpanData> spans = awaitSpan(exporter, span -> span.getName().equals("job observed"));
        SpanData step = spans.stream().filter(span -> span.getName().equals("step spread")).findFirst().orElseThrow();
        StepExecutionId parent = QuarkusTransaction.requiringNew().call(() -> repository.stepExecutions(run.id()))
                .stream().filter(attempt -> attempt.stepName().value().equals("spread")).findFirst().orElseThrow().id();
        assertEquals("00-" + step.getTraceId() + "-" + step.getSpanId() + "-01",
                TraceParents.read(dataSource, "dbatch_step_execution", parent.value()),
                "the step span's trace context is kept with its attempt, where remote workers find it");
    }

    @Test
    void aRemoteWorkersPartitionSpanIsAChildOfItsPartitionedStepsSpan() throws Exception {
        StepExecution parent = publishedElsewhere(registry.get("observed"));
        TraceParents.Written stored = TraceParents.writeOfAnotherProcess(dataSource, "dbatch_step_execution",
                parent.id().value());
        QuarkusTransaction.requiringNew().run(() -> repository.createStepPartitionPlan(parent.id(),
                List.of(PartitionPlanEntry.of("p0", new byte[] { 0 }), PartitionPlanEntry.of("p1", new byte[] { 1 }))));

        List<SpanData> spans = awaitPartitions(2);
        List<SpanData> workers = spans.stream().filter(span -> span.getName().equals("partition spreadWorker")).toList();
        assertEquals(2, workers.size(), spans.toString());
        for (SpanData worker : workers) {
            assertEquals(stored.traceId(), worker.getTraceId(), "in the trace of the partitioned step's span: " + worker);
            assertEquals(stored.spanId(), worker.getParentSpanId(), "the partitioned step's span is its parent: " + worker);
            assertTrue(worker.getParentSpanContext().isRemote(), worker.toString());
            assertTrue(childrenOf(spans, worker).stream().anyMatch(chunk -> chunk.getName().equals("chunk spreadWorker")),
                    "its chunks stay under it");
        }
    }

    /**
     * What the parent's process does before its workers start, as another process: a STARTED execution
     * it owns and the parent step attempt STARTED; the test publishes the plan once the step's trace
     * context is written, as that process does.
     */
    private StepExecution publishedElsewhere(JobDefinition definition) {
        return QuarkusTransaction.requiringNew().call(() -> {
            JobInstance instance = repository.selectOrCreateJobInstance(JobParameters.of("run",
                    UUID.randomUUID().toString()).keyFor(definition.name())).instance();
            JobExecution created = repository
                    .createJobExecution(JobExecutionRequest.of(instance.id()).definedBy(definition.identity()));
            JobExecution owned = repository.claimExecutionOwner(created.id(), created.version(), OTHER_PROCESS,
                    Instant.now());
            repository.transitionJobExecution(owned.id(), owned.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
            StepExecution step = repository.createFlowStepExecution(created.id(), StepName.of("spread"),
                    NodeId.of("spread"), StartLimit.UNLIMITED);
            return repository.transitionStepExecution(step.id(), step.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        });
    }

    /** The spans exported once {@code count} partition spans of the worker step are. */
    private List<SpanData> awaitPartitions(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            List<SpanData> spans = exporter.getFinishedSpanItems();
            if (spans.stream().filter(span -> span.getName().equals("partition spreadWorker")).count() >= count) {
                return spans;
            }
            assertTrue(System.nanoTime() < deadline, "the remote workers ran no partition: "
                    + spans.stream().map(SpanData::getName).toList());
            Thread.sleep(50);
        }
    }
}
