package io.durablebatch.runtime.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.durablebatch.execution.ExecutionStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The kernel's meters in the application's Micrometer registry. Registered as a bean by the build
 * only where the application has Micrometer; a step attempt looks its meters up once, so a chunk
 * costs three increments and a timer record.
 */
public class MicrometerKernelMetrics implements KernelMetrics {

    static final String PREFIX = "durable.batch.";

    private final MeterRegistry registry;
    private final AtomicLong active = new AtomicLong();

    public MicrometerKernelMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge(PREFIX + "executions.active", active);
        // at zero from the start, so that a graph of their rate has a series before the first failure
        registry.counter(PREFIX + "lease.renewal.failures");
        registry.counter(PREFIX + "lease.sweep.failures");
    }

    @Override
    public void executionStarted(String job) {
        active.incrementAndGet();
        registry.counter(PREFIX + "executions.started", "job", job).increment();
        // the job's recovery counters at zero once it ran here (the registry keeps one meter per name and tags)
        registry.counter(PREFIX + "lease.recoveries", "job", job);
        registry.counter(PREFIX + "lease.restarts", "job", job);
    }

    @Override
    public void executionEnded(String job, ExecutionStatus status) {
        active.decrementAndGet();
        registry.counter(PREFIX + "executions.ended", "job", job, "status", status.name()).increment();
    }

    @Override
    public ChunkMeter chunks(String job, String step) {
        return new StepMeters(registry, job, step);
    }

    @Override
    public void recovered(String job) {
        registry.counter(PREFIX + "lease.recoveries", "job", job).increment();
    }

    @Override
    public void restartedOnOwnerLoss(String job) {
        registry.counter(PREFIX + "lease.restarts", "job", job).increment();
    }

    @Override
    public void renewalFailed() {
        registry.counter(PREFIX + "lease.renewal.failures").increment();
    }

    @Override
    public void sweepFailed() {
        registry.counter(PREFIX + "lease.sweep.failures").increment();
    }

    @Override
    public void scheduleFired(String job) {
        registry.counter(PREFIX + "schedule.fires", "job", job).increment();
    }

    @Override
    public void scheduleMisfired(String job, long fires) {
        registry.counter(PREFIX + "schedule.misfires", "job", job).increment(fires);
    }

    @Override
    public void scheduleSkipped(String job, String reason, long fires) {
        registry.counter(PREFIX + "schedule.skipped", "job", job, "reason", reason).increment(fires);
    }

    /** The meters of one step of one job (the registry returns the same meters for the same name and tags). */
    private static final class StepMeters implements ChunkMeter {
        final Counter read;
        final Counter written;
        final Counter skipped;
        final Timer commit;

        StepMeters(MeterRegistry registry, String job, String step) {
            read = registry.counter(PREFIX + "items.read", "job", job, "step", step);
            written = registry.counter(PREFIX + "items.written", "job", job, "step", step);
            skipped = registry.counter(PREFIX + "items.skipped", "job", job, "step", step);
            commit = Timer.builder(PREFIX + "chunk.commit").tags("job", job, "step", step)
                    .description("The duration of a chunk's transaction: process, write, record progress")
                    .register(registry);
        }

        @Override
        public void committed(long read, long written, long skipped, long nanos) {
            this.read.increment(read);
            this.written.increment(written);
            this.skipped.increment(skipped);
            commit.record(nanos, TimeUnit.NANOSECONDS);
        }
    }
}
