package io.durablebatch.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.partition.PartitionPlanEntry;
import io.durablebatch.partition.StepPartition;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.ExecutionVersion;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobInstanceKey;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.StepCounters;
import io.durablebatch.repository.StepExecution;
import io.durablebatch.repository.StepExecutionId;
import io.durablebatch.repository.StepName;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The partition workloads: creating a plan, workers claiming and completing partitions, and
 * aggregating a large plan. Each workload runs against the configured repository database, every
 * unit of work committed as the kernel would commit it, and reports one JSON line.
 */
@ApplicationScoped
public class PartitionBenchmark {

    /** What to measure: plan size, partitions per throughput run, worker counts, aggregated children, repetitions. */
    public record Settings(int planSize, int throughputPartitions, List<Integer> workerCounts, int aggregatedChildren,
            int repetitions) {

        public static Settings defaults() {
            return new Settings(10_000, 2_000, List.of(1, 8), 10_000, 5);
        }
    }

    /** What each worker step reports: a chunk of 100 items. */
    private static final StepCounters COUNTERS = new StepCounters(100, 100, 0, 0, 0, 0, 1, 0);

    private final JobRepository repository;
    private final MetadataSql sql;

    PartitionBenchmark(JobRepository repository, MetadataSql sql) {
        this.repository = repository;
        this.sql = sql;
    }

    /** Runs every workload; one JSON line each. */
    public List<String> run(Settings settings) {
        List<String> lines = new ArrayList<>();
        lines.add(planCreation(settings.planSize(), settings.repetitions()));
        for (int workers : settings.workerCounts()) {
            lines.add(claimAndComplete(workers, settings.throughputPartitions()));
        }
        lines.add(aggregation(settings.aggregatedChildren(), settings.repetitions()));
        return lines;
    }

    /** Creating a plan of {@code size} partitions in its own unit of work, on a fresh parent each time. */
    String planCreation(int size, int repetitions) {
        List<PartitionPlanEntry> entries = entries(size);
        double[] millis = new double[repetitions];
        long statements = 0;
        for (int run = -1; run < repetitions; run++) { // run -1 warms up
            StepExecution parent = startParent("bench-plan").parent();
            long before = sql.statementsExecuted();
            long start = System.nanoTime();
            tx(() -> repository.createStepPartitionPlan(parent.id(), entries));
            if (run >= 0) {
                millis[run] = (System.nanoTime() - start) / 1e6;
                statements = sql.statementsExecuted() - before;
            }
        }
        Arrays.sort(millis);
        return json(Map.of("workload", "\"partition_plan_create\"", "partitions", size, "runs", repetitions,
                "ms_median", fixed(millis[repetitions / 2]), "ms_min", fixed(millis[0]),
                "ms_max", fixed(millis[repetitions - 1]), "statements_per_plan", statements));
    }

    /**
     * {@code workers} threads work off a plan of {@code partitions}: each partition costs one unit of
     * work to start a worker step, claim and start (3 statements) and one to end the worker and
     * complete the partition (2 statements).
     */
    String claimAndComplete(int workers, int partitions) {
        Parent job = startParent("bench-claim-" + workers);
        tx(() -> repository.createStepPartitionPlan(job.parent().id(), entries(partitions)));
        AtomicLong failures = new AtomicLong();
        long before = sql.statementsExecuted();
        long start = System.nanoTime();
        List<Long> done = inParallel(workers, () -> {
            long completed = 0;
            try {
                for (Optional<StepPartition> claimed = claim(job); claimed.isPresent(); claimed = claim(job)) {
                    complete(claimed.get());
                    completed++;
                }
            } catch (RuntimeException e) {
                failures.incrementAndGet(); // a failed worker stops; its partition stays assigned, as in production
            }
            return completed;
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        long completed = done.stream().mapToLong(Long::longValue).sum();
        long statements = sql.statementsExecuted() - before;
        return json(Map.of("workload", "\"partition_claim_complete\"", "workers", workers, "partitions", completed,
                "seconds", fixed(seconds), "partitions_per_s", fixed(completed / seconds),
                "statements_per_partition", fixed((double) statements / Math.max(1, completed)),
                "commits_per_partition", 2, "failures", failures.get()));
    }

    /** Aggregating a parent of {@code children} completed partitions: rolled back each run, then once committed. */
    String aggregation(int children, int repetitions) {
        Parent job = startParent("bench-aggregate");
        List<StepPartition> plan = tx(() -> repository.createStepPartitionPlan(job.parent().id(), entries(children)));
        int batch = 500;
        for (int from = 0; from < plan.size(); from += batch) {
            List<StepPartition> slice = plan.subList(from, Math.min(plan.size(), from + batch));
            tx(() -> {
                slice.forEach(partition -> runWorker(job.execution(), partition));
                return null;
            });
        }
        double[] millis = new double[repetitions];
        long statements = 0;
        for (int run = -1; run < repetitions; run++) { // run -1 warms up
            long before = sql.statementsExecuted();
            long start = System.nanoTime();
            try {
                QuarkusTransaction.requiringNew().run(() -> {
                    repository.aggregateStepPartitions(job.parent().id(), job.parent().version(), Instant.now());
                    throw new RolledBack();
                });
            } catch (RolledBack expected) {
                // measured without publishing, so the same parent is aggregated again
            }
            if (run >= 0) {
                millis[run] = (System.nanoTime() - start) / 1e6;
                statements = sql.statementsExecuted() - before;
            }
        }
        long start = System.nanoTime();
        StepExecution aggregated = tx(() -> repository.aggregateStepPartitions(job.parent().id(), job.parent().version(),
                Instant.now()));
        double committed = (System.nanoTime() - start) / 1e6;
        Arrays.sort(millis);
        return json(Map.of("workload", "\"partition_aggregate\"", "children", children, "runs", repetitions,
                "ms_median", fixed(millis[repetitions / 2]), "ms_min", fixed(millis[0]), "ms_committed", fixed(committed),
                "statements", statements, "status", "\"" + aggregated.status() + "\""));
    }

    private Optional<StepPartition> claim(Parent job) {
        List<StepPartition> claimed = new ArrayList<>(1);
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                StepExecution worker = repository.createStepExecution(job.execution().id(), StepName.of("worker"));
                Optional<StepPartition> partition = repository.claimNextStepPartition(job.parent().id(), worker.id());
                if (partition.isEmpty()) {
                    throw new RolledBack(); // the plan is worked off: no worker step is left behind
                }
                repository.transitionStepExecution(worker.id(), worker.version(),
                        LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
                claimed.add(partition.get());
            });
        } catch (RolledBack exhausted) {
            return Optional.empty();
        }
        return Optional.of(claimed.get(0));
    }

    private void complete(StepPartition partition) {
        StepExecutionId worker = partition.worker().orElseThrow();
        tx(() -> {
            // the worker was created and started in the claim's unit of work: version 1
            repository.transitionStepExecution(worker, ExecutionVersion.of(1),
                    LifecycleTransition.to(ExecutionStatus.COMPLETED, Instant.now()).withCounters(COUNTERS));
            return repository.completeStepPartition(partition.id(), partition.version(), worker);
        });
    }

    private void runWorker(JobExecution execution, StepPartition partition) {
        StepExecution worker = repository.createStepExecution(execution.id(), StepName.of("worker"));
        StepPartition assigned = repository.assignStepPartition(partition.id(), partition.version(), worker.id());
        StepExecution started = repository.transitionStepExecution(worker.id(), worker.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        repository.transitionStepExecution(worker.id(), started.version(),
                LifecycleTransition.to(ExecutionStatus.COMPLETED, Instant.now()).withCounters(COUNTERS));
        repository.completeStepPartition(assigned.id(), assigned.version(), worker.id());
    }

    /** A running job execution of a fresh instance with a STARTED parent step. */
    private Parent startParent(String job) {
        return tx(() -> {
            var instance = repository.selectOrCreateJobInstance(JobInstanceKey.of(JobName.of(job + "-" + UUID.randomUUID())))
                    .instance();
            JobExecution created = repository.createJobExecution(instance.id());
            JobExecution execution = repository.transitionJobExecution(created.id(), created.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
            StepExecution step = repository.createStepExecution(execution.id(), StepName.of("partitioned"));
            return new Parent(execution, repository.transitionStepExecution(step.id(), step.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now())));
        });
    }

    private record Parent(JobExecution execution, StepExecution parent) {
    }

    private static List<PartitionPlanEntry> entries(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> PartitionPlanEntry.of(String.format("key-%08d", i),
                ("{\"from\":" + (i - 1) * 1000 + ",\"to\":" + i * 1000 + "}").getBytes(StandardCharsets.UTF_8)))
                .toList();
    }

    private static <T> List<T> inParallel(int threads, Supplier<T> task) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return task.get();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } catch (Exception e) {
            throw new IllegalStateException("a benchmark worker failed", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T> T tx(Supplier<T> work) {
        return QuarkusTransaction.requiringNew().call(work::get);
    }

    private static String fixed(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** One JSON object on one line, keys sorted so lines diff well. */
    private static String json(Map<String, Object> fields) {
        StringBuilder line = new StringBuilder("{");
        fields.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(field -> line
                .append(line.length() > 1 ? "," : "").append('"').append(field.getKey()).append("\":")
                .append(field.getValue()));
        return line.append('}').toString();
    }

    private static final class RolledBack extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }
}
