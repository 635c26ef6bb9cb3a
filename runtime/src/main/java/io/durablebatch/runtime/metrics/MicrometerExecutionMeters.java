package io.durablebatch.runtime.metrics;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.runtime.observe.ExecutionObserver;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The durations and backlog an operator graphs, from the kernel's observation seam: how long job
 * executions and step attempts ran, by job, step and end status, and how many partitions of the
 * plans this process's parents run wait for a worker. A bean only where the application has
 * Micrometer.
 */
public class MicrometerExecutionMeters implements ExecutionObserver {

    static final String EXECUTION_DURATION = MicrometerKernelMetrics.PREFIX + "execution.duration";
    static final String STEP_DURATION = MicrometerKernelMetrics.PREFIX + "step.duration";
    static final String PARTITIONS_UNASSIGNED = MicrometerKernelMetrics.PREFIX + "partitions.unassigned";
    static final String PARTITIONS_RUNNING = MicrometerKernelMetrics.PREFIX + "partitions.running";

    private final MeterRegistry registry;
    /** The backlog of each partitioned step of each job, summed over the parents running here. */
    private final ConcurrentMap<List<String>, Backlog> backlogs = new ConcurrentHashMap<>();
    /** What each running parent last polled, so that its end takes its share back out. */
    private final ConcurrentMap<Long, long[]> polled = new ConcurrentHashMap<>();

    public MicrometerExecutionMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Observation<JobExecution> job(JobExecution execution, Object launch) {
        Timer.Sample sample = Timer.start(registry);
        String job = execution.jobName().value();
        return new Observation<>() {
            @Override
            public void ended(JobExecution recorded) {
                sample.stop(timer(EXECUTION_DURATION, "The duration of job executions run here, by end status",
                        Tags.of("job", job, "status", recorded.status().name())));
            }

            @Override
            public void failed(Throwable failure) {
                sample.stop(timer(EXECUTION_DURATION, "The duration of job executions run here, by end status",
                        Tags.of("job", job, "status", ExecutionStatus.UNKNOWN.name())));
            }
        };
    }

    @Override
    public Observation<StepExecution> step(ObservedStep step) {
        Timer.Sample sample = Timer.start(registry);
        String job = step.context().jobName().value();
        String name = step.context().stepName().value();
        boolean worker = step.context().partition().isPresent();
        return new Observation<>() {
            @Override
            public void ended(StepExecution recorded) {
                sample.stop(
                        timer(STEP_DURATION, "The duration of step attempts run here; partition=true for a partition's worker",
                                Tags.of("job", job, "step", name, "status", recorded.status().name(), "partition",
                                        Boolean.toString(worker))));
            }
        };
    }

    @Override
    public void partitionsPolled(JobName job, StepExecution parent, long unassigned, long running) {
        Backlog backlog = backlog(job, parent);
        long[] last = polled.put(parent.id().value(), new long[] { unassigned, running });
        backlog.unassigned.addAndGet(unassigned - (last == null ? 0 : last[0]));
        backlog.running.addAndGet(running - (last == null ? 0 : last[1]));
    }

    @Override
    public void partitionsEnded(JobName job, StepExecution parent) {
        long[] last = polled.remove(parent.id().value());
        if (last != null) {
            Backlog backlog = backlog(job, parent);
            backlog.unassigned.addAndGet(-last[0]);
            backlog.running.addAndGet(-last[1]);
        }
    }

    private Backlog backlog(JobName job, StepExecution parent) {
        return backlogs.computeIfAbsent(List.of(job.value(), parent.stepName().value()), key -> {
            Backlog created = new Backlog(new AtomicLong(), new AtomicLong());
            Tags tags = Tags.of("job", key.get(0), "step", key.get(1));
            Gauge.builder(PARTITIONS_UNASSIGNED, created.unassigned, AtomicLong::get).tags(tags)
                    .description("Partitions of the plans of parents running here that wait for a worker")
                    .register(registry);
            Gauge.builder(PARTITIONS_RUNNING, created.running, AtomicLong::get).tags(tags)
                    .description("Partitions of the plans of parents running here that a worker runs")
                    .register(registry);
            return created;
        });
    }

    private Timer timer(String name, String description, Tags tags) {
        return Timer.builder(name).description(description).tags(tags).register(registry);
    }

    private record Backlog(AtomicLong unassigned, AtomicLong running) {
    }
}
