package io.durablebatch.observe.test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.runtime.metrics.KernelMetrics;
import io.durablebatch.runtime.metrics.MicrometerExecutionMeters;
import io.durablebatch.runtime.metrics.MicrometerKernelMetrics;
import io.durablebatch.runtime.observe.BatchTracing;
import io.durablebatch.runtime.observe.ExecutionObserver;
import io.durablebatch.runtime.observe.ExecutionObservers;
import io.durablebatch.runtime.observe.LogContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The observers' own cost per committed chunk, as the chunk loop pays it: the call it makes once per
 * chunk, with no observer (an application without these libraries), with Micrometer's meters, and with
 * OpenTelemetry's chunk span added (the SDK's batch processor, an exporter that counts and drops).
 * Run: {@code java -cp <test classpath> io.durablebatch.observe.test.ChunkObservationCost [chunks] [rounds]}
 * (the figures on benchmarks.adoc, "Issue 31").
 */
public final class ChunkObservationCost {

    private ChunkObservationCost() {
    }

    public static void main(String[] args) {
        int chunks = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        AtomicLong exported = new AtomicLong();
        SpanExporter counting = new SpanExporter() {
            @Override
            public CompletableResultCode export(java.util.Collection<SpanData> spans) {
                exported.addAndGet(spans.size());
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode flush() {
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
                return CompletableResultCode.ofSuccess();
            }
        };
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(BatchSpanProcessor.builder(counting).setMaxQueueSize(65_536).build()).build();
        OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(provider).build();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        KernelMetrics micrometer = new MicrometerKernelMetrics(registry);
        ExecutionObservers none = new ExecutionObservers(List.of(new LogContext()));
        ExecutionObservers meters = new ExecutionObservers(List.of(new LogContext(),
                new MicrometerExecutionMeters(registry)));
        ExecutionObservers traced = new ExecutionObservers(List.of(new LogContext(),
                new MicrometerExecutionMeters(registry), new BatchTracing(otel)));
        JobExecution execution = new JobExecution(JobExecutionId.of(1), JobInstanceId.of(1), new JobName("cost"), 1,
                ExecutionStatus.STARTED, ExitStatus.EXECUTING, Optional.empty(), Optional.empty(),
                ExecutionParameters.NONE, Instant.now(), Optional.of(Instant.now()), Optional.empty(), Instant.now(),
                ExecutionVersion.INITIAL);
        for (int round = 1; round <= rounds; round++) {
            long bare = perChunk(none.withChunks(KernelMetrics.NONE), none, execution, chunks);
            long measured = perChunk(meters.withChunks(micrometer), meters, execution, chunks);
            long before = exported.get();
            long spans = perChunk(traced.withChunks(micrometer), traced, execution, chunks);
            provider.forceFlush().join(10, TimeUnit.SECONDS);
            System.out.printf("round %d: %d chunks; ns per chunk: no library %d, Micrometer %d, "
                    + "Micrometer + OpenTelemetry %d (%d spans exported)%n", round, chunks, bare, measured, spans,
                    exported.get() - before);
        }
        provider.shutdown().join(10, TimeUnit.SECONDS);
    }

    /** Opens a job observation (the spans' parent, as on the kernel's thread) and times the chunk calls in it. */
    private static long perChunk(KernelMetrics metrics, ExecutionObservers observers, JobExecution execution,
            int chunks) {
        try (ExecutionObserver.Observation<JobExecution> job = observers.job(execution, null)) {
            KernelMetrics.ChunkMeter meter = metrics.chunks("cost", "load");
            long began = System.nanoTime();
            for (int i = 0; i < chunks; i++) {
                meter.committed(100, 100, 0, 500_000);
            }
            long nanos = System.nanoTime() - began;
            job.ended(execution);
            return nanos / chunks;
        }
    }
}
