package io.durablebatch.benchmarks;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.control.ExecutionControl;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The cost of {@code observeExecutionControl}, which the kernel calls at every chunk commit: the
 * statements of a call as the repository issues them (JDBC) and as PostgreSQL counts them, and its
 * latency, each call in its own unit of work; in the common case (no stop requested) and for the one
 * observation that finds a stop request and moves the execution to STOPPING.
 */
final class ObserveControlWorkload implements Workload {

    private static final OwnerToken OWNER = OwnerToken.of("benchmark/boot-1");

    private final BenchmarkConfig.Control config;
    private final KernelRepository repository;
    private final StatementCounter statements;
    private final MetadataSql sql;

    ObserveControlWorkload(BenchmarkConfig.Control config, KernelRepository repository, StatementCounter statements,
            MetadataSql sql) {
        this.config = config;
        this.repository = repository;
        this.statements = statements;
        this.sql = sql;
    }

    @Override
    public String name() {
        return "observe-control";
    }

    @Override
    public String description() {
        return config.calls() + " observations of a running execution, then the one that stops it";
    }

    @Override
    public JsonLine run() {
        JobExecution started = startedExecution();
        for (int i = 0; i < config.warmup(); i++) {
            observe(started);
        }

        long[] nanos = new long[config.calls()];
        StatementCounter.Window window = statements.startCountingTransactions();
        long jdbcBefore = sql.statementsExecuted();
        ExecutionControl last = null;
        for (int i = 0; i < nanos.length; i++) {
            long callStarted = System.nanoTime();
            last = observe(started);
            nanos[i] = System.nanoTime() - callStarted;
        }
        long jdbc = sql.statementsExecuted() - jdbcBefore;
        StatementCounts continuing = window.stop();

        ExecutionControl observed = last;
        QuarkusTransaction.requiringNew().call(() -> repository.requestExecutionStop(started.id(), observed.version(),
                ActorRef.of("benchmark"), Instant.now()));
        StatementCounter.Window stopWindow = statements.startCountingTransactions();
        long jdbcStopBefore = sql.statementsExecuted();
        ExecutionControl stopping = observe(started);
        long jdbcStop = sql.statementsExecuted() - jdbcStopBefore;
        StatementCounts stopped = stopWindow.stop();

        Latencies latencies = new Latencies(nanos);
        Map<String, Object> noStop = new LinkedHashMap<>();
        noStop.put("calls", nanos.length);
        noStop.put("jdbcStatementsPerCall", jdbc / (double) nanos.length);
        noStop.put("pgStatementsPerCall", continuing.pgStatements() / (double) nanos.length);
        noStop.put("pgStatementsPerCallByKind", continuing.callsByKindPer(nanos.length));
        noStop.put("p50Micros", latencies.percentileMicros(50));
        noStop.put("p99Micros", latencies.percentileMicros(99));
        Map<String, Object> stop = new LinkedHashMap<>();
        stop.put("jdbcStatements", jdbcStop);
        stop.put("pgStatements", stopped.pgStatements());
        stop.put("pgStatementsByKind", stopped.callsByKind());
        stop.put("status", stopping.status().name());
        return JsonLine.workload(name())
                .put("noStopRequested", noStop)
                .put("stopRequested", stop)
                .put("note", "each call in its own unit of work, commit included")
                .require(jdbc == nanos.length, "an observation without a stop request is one statement")
                .require(observed.signal() == ExecutionControl.Signal.CONTINUE, "without a request the owner goes on")
                .require(jdbcStop == 1, "the observation that stops is one statement")
                .require(stopping.status() == ExecutionStatus.STOPPING, "a pending stop moves the execution to STOPPING");
    }

    private ExecutionControl observe(JobExecution execution) {
        return QuarkusTransaction.requiringNew().call(() -> repository.observeExecutionControl(execution.id(), OWNER,
                Instant.now()));
    }

    /** A STARTED execution of a new instance, claimed by {@link #OWNER}. */
    private JobExecution startedExecution() {
        return QuarkusTransaction.requiringNew().call(() -> {
            JobInstanceKey key = JobInstanceKey.of(JobName.of("bench-control"), Map.of("run", 1L));
            JobExecution created = repository
                    .createJobExecution(JobExecutionRequest.of(repository.selectOrCreateJobInstance(key).instance().id()));
            JobExecution claimed = repository.claimExecutionOwner(created.id(), created.version(), OWNER, Instant.now());
            return repository.transitionJobExecution(claimed.id(), claimed.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        });
    }
}
