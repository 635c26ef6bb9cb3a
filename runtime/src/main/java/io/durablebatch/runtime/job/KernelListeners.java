package io.durablebatch.runtime.job;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import jakarta.inject.Singleton;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.durablebatch.execution.JobName;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.Node;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.job.Step;
import io.durablebatch.job.TaskletStep;
import io.durablebatch.listener.BatchListener;
import io.durablebatch.listener.ChunkListener;
import io.durablebatch.listener.ItemProcessListener;
import io.durablebatch.listener.ItemReadListener;
import io.durablebatch.listener.ItemWriteListener;
import io.durablebatch.listener.JobEndListener;
import io.durablebatch.listener.JobListener;
import io.durablebatch.listener.Listeners;
import io.durablebatch.listener.RetryListener;
import io.durablebatch.listener.SkipListener;
import io.durablebatch.listener.StepListener;
import io.durablebatch.runtime.DurableBatchConfig;
import io.quarkus.arc.All;
import io.quarkus.arc.InstanceHandle;

/**
 * The listeners that apply to a job execution or a step attempt, in calling order: the kernel's
 * skip log (when on), the CDI beans whose {@code appliesTo} accepts the job, by ascending
 * {@code @Priority}, then the job's declared listeners, then the step's (for a partition worker:
 * the partitioned step's, then the worker step's). The beans are injected through {@code @All}
 * lists, which also keep ArC from removing them as unused.
 */
@Singleton
public class KernelListeners {

    private final List<JobListener> jobBeans;
    private final List<JobEndListener> jobEndBeans;
    private final List<StepListener> stepBeans;
    private final List<ChunkListener> chunkBeans;
    private final List<SkipListener> skipBeans;
    private final List<RetryListener> retryBeans;
    private final List<ItemReadListener> readBeans;
    private final List<ItemProcessListener> processBeans;
    private final List<ItemWriteListener> writeBeans;
    private final Optional<SkipListener> skipLog;
    private final JobRegistry registry;

    KernelListeners(@All List<InstanceHandle<JobListener>> jobs, @All List<InstanceHandle<JobEndListener>> jobEnds,
            @All List<InstanceHandle<StepListener>> steps,
            @All List<InstanceHandle<ChunkListener>> chunks, @All List<InstanceHandle<SkipListener>> skips,
            @All List<InstanceHandle<RetryListener>> retries,
            @All List<InstanceHandle<ItemReadListener>> reads, @All List<InstanceHandle<ItemProcessListener>> processes,
            @All List<InstanceHandle<ItemWriteListener>> writes, TransactionSynchronizationRegistry transactions,
            DurableBatchConfig config, JobRegistry registry) {
        this.jobBeans = byPriority(jobs);
        this.jobEndBeans = byPriority(jobEnds);
        this.stepBeans = byPriority(steps);
        this.chunkBeans = byPriority(chunks);
        this.skipBeans = byPriority(skips);
        this.retryBeans = byPriority(retries);
        this.readBeans = byPriority(reads);
        this.processBeans = byPriority(processes);
        this.writeBeans = byPriority(writes);
        this.skipLog = config.skips().log() ? Optional.of(new SkipWarnings(transactions)) : Optional.empty();
        this.registry = registry;
    }

    /** Ascending priority (a bean without {@code @Priority} has 0), then bean class name, so the order is stable. */
    private static <T> List<T> byPriority(List<InstanceHandle<T>> handles) {
        return handles.stream()
                .sorted(Comparator.<InstanceHandle<T>> comparingInt(handle -> handle.getBean().getPriority())
                        .thenComparing(handle -> handle.getBean().getBeanClass().getName()))
                .map(InstanceHandle::get).toList();
    }

    /** The job listeners of an execution of {@code definition}. */
    JobCallbacks forJob(JobDefinition definition) {
        List<Listeners> declared = List.of(definition.listeners());
        return new JobCallbacks(applying(jobBeans, definition.name(), JobListener.class, declared),
                applying(jobEndBeans, definition.name(), JobEndListener.class, declared));
    }

    /** The listeners of an attempt of {@code step} (a node, or a partitioned step's worker) of job {@code jobName}. */
    StepCallbacks forStep(JobName jobName, Step step) {
        Optional<JobDefinition> definition = registry.find(jobName.value());
        Listeners job = definition.map(JobDefinition::listeners).orElse(Listeners.NONE);
        Listeners parent = definition.flatMap(d -> parentOf(d, step)).map(PartitionedStep::listeners).orElse(Listeners.NONE);
        Listeners own = declared(step);
        List<StepListener> stepListeners = applying(stepBeans, jobName, StepListener.class, List.of(job, own));
        // a partitioned step's chunks, skips and items are its workers'
        List<Listeners> chunkSides = step instanceof PartitionedStep ? List.of() : List.of(job, parent, own);
        List<ChunkListener> chunkListeners = applying(chunkBeans, jobName, ChunkListener.class, chunkSides);
        List<SkipListener> skipListeners = new ArrayList<>();
        skipLog.ifPresent(skipListeners::add);
        skipListeners.addAll(applying(skipBeans, jobName, SkipListener.class, chunkSides));
        List<RetryListener> retryListeners = applying(retryBeans, jobName, RetryListener.class, chunkSides);
        return new StepCallbacks(stepListeners, chunkListeners, skipListeners, retryListeners,
                items(jobName, step, chunkSides));
    }

    /** The item listeners of a chunk step's attempt ({@code null} for other steps, or when none applies). */
    private ItemCallbacks items(JobName jobName, Step step, List<Listeners> declared) {
        if (!(step instanceof ChunkStep<?, ?> chunk)) {
            return null;
        }
        // a step without a processor processes nothing: its process listeners would never be called
        List<ItemProcessListener> processes = chunk.processor().isPresent()
                ? applying(processBeans, jobName, ItemProcessListener.class, declared)
                : List.of();
        return ItemCallbacks.of(applying(readBeans, jobName, ItemReadListener.class, declared), processes,
                applying(writeBeans, jobName, ItemWriteListener.class, declared));
    }

    private static Listeners declared(Step step) {
        if (step instanceof ChunkStep<?, ?> chunk) {
            return chunk.listeners();
        } else if (step instanceof TaskletStep tasklet) {
            return tasklet.listeners();
        }
        return ((PartitionedStep) step).listeners();
    }

    /** The partitioned step whose worker {@code step} is, if it is one. */
    private static Optional<PartitionedStep> parentOf(JobDefinition definition, Step step) {
        for (Node node : definition.nodes().values()) {
            if (node instanceof PartitionedStep partitioned && partitioned.worker() == step) {
                return Optional.of(partitioned);
            }
        }
        return Optional.empty();
    }

    /** The beans that apply to {@code job}, then the listeners of {@code kind} declared on each of {@code declared}. */
    private static <T extends BatchListener> List<T> applying(List<T> beans, JobName job, Class<T> kind,
            List<Listeners> declared) {
        List<T> applying = applying(beans, job);
        for (Listeners listeners : declared) {
            applying.addAll(listeners.of(kind));
        }
        return applying;
    }

    private static <T extends BatchListener> List<T> applying(List<T> beans, JobName job) {
        List<T> applying = new ArrayList<>(beans.size());
        for (T bean : beans) {
            if (bean.appliesTo(job)) {
                applying.add(bean);
            }
        }
        return applying;
    }
}
