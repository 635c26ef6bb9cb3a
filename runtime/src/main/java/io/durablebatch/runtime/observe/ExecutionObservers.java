package io.durablebatch.runtime.observe;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.runtime.metrics.KernelMetrics;

/**
 * The kernel's one seam for observers: it calls this bean at the boundaries of executions, steps,
 * chunks and partition plans, and this bean calls every {@link ExecutionObserver} the build
 * registered (the log context always; spans with OpenTelemetry; durations and backlog with
 * Micrometer). Without observers each call is a length check.
 */
@Singleton
public class ExecutionObservers {

    private final ExecutionObserver[] observers;

    @Inject
    ExecutionObservers(Instance<ExecutionObserver> observers) {
        this(observers.stream().toList());
    }

    /** The given observers, in order (tests, and the kernel's runners built outside CDI). */
    public ExecutionObservers(List<ExecutionObserver> observers) {
        this.observers = observers.toArray(ExecutionObserver[]::new);
    }

    /** Observes nothing. */
    public static final ExecutionObservers NONE = new ExecutionObservers(List.of());

    public Object launching(JobExecution execution) {
        if (observers.length == 0) {
            return null;
        }
        Object[] launches = new Object[observers.length];
        for (int i = 0; i < observers.length; i++) {
            launches[i] = observers[i].launching(execution);
        }
        return launches;
    }

    public ExecutionObserver.Observation<JobExecution> job(JobExecution execution, Object launch) {
        if (observers.length == 0) {
            return ExecutionObserver.Observation.none();
        }
        Object[] launches = launch instanceof Object[] array ? array : new Object[observers.length];
        List<ExecutionObserver.Observation<JobExecution>> opened = new ArrayList<>(observers.length);
        for (int i = 0; i < observers.length; i++) {
            opened.add(observers[i].job(execution, launches[i]));
        }
        return new All<>(opened);
    }

    public ExecutionObserver.Observation<StepExecution> step(ExecutionObserver.ObservedStep step) {
        if (observers.length == 0) {
            return ExecutionObserver.Observation.none();
        }
        List<ExecutionObserver.Observation<StepExecution>> opened = new ArrayList<>(observers.length);
        for (ExecutionObserver observer : observers) {
            opened.add(observer.step(step));
        }
        return new All<>(opened);
    }

    public void partitionsPolled(JobName job, StepExecution parent, long unassigned, long running) {
        for (ExecutionObserver observer : observers) {
            observer.partitionsPolled(job, parent, unassigned, running);
        }
    }

    public void partitionsEnded(JobName job, StepExecution parent) {
        for (ExecutionObserver observer : observers) {
            observer.partitionsEnded(job, parent);
        }
    }

    /**
     * {@code metrics}, with the observers' chunk meters joined to its own: the chunk loop asks it once
     * per step attempt and calls what it gets once per committed chunk.
     */
    public KernelMetrics withChunks(KernelMetrics metrics) {
        return new KernelMetrics() {
            @Override
            public ChunkMeter chunks(String job, String step) {
                List<ChunkMeter> meters = new ArrayList<>(observers.length + 1);
                ChunkMeter own = metrics.chunks(job, step);
                if (own != ChunkMeter.NONE) {
                    meters.add(own);
                }
                for (ExecutionObserver observer : observers) {
                    ChunkMeter meter = observer.chunks(job, step);
                    if (meter != null) {
                        meters.add(meter);
                    }
                }
                if (meters.size() <= 1) {
                    return meters.isEmpty() ? ChunkMeter.NONE : meters.get(0);
                }
                ChunkMeter[] all = meters.toArray(ChunkMeter[]::new);
                return (read, written, skipped, nanos) -> {
                    for (ChunkMeter meter : all) {
                        meter.committed(read, written, skipped, nanos);
                    }
                };
            }
        };
    }

    /** The observations of every observer, ended and closed in the reverse order of their opening. */
    private record All<T>(List<ExecutionObserver.Observation<T>> opened) implements ExecutionObserver.Observation<T> {

        @Override
        public void ended(T recorded) {
            for (int i = opened.size() - 1; i >= 0; i--) {
                opened.get(i).ended(recorded);
            }
        }

        @Override
        public void failed(Throwable failure) {
            for (int i = opened.size() - 1; i >= 0; i--) {
                opened.get(i).failed(failure);
            }
        }

        @Override
        public void close() {
            for (int i = opened.size() - 1; i >= 0; i--) {
                opened.get(i).close();
            }
        }
    }
}
