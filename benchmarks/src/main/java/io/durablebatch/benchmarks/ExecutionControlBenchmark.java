package io.durablebatch.benchmarks;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.operator.ExecutionControl;
import io.durablebatch.operator.OwnerToken;
import io.durablebatch.repository.ActorRef;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobInstanceKey;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The cost of {@code observeExecutionControl}, which the kernel calls at every chunk commit: the
 * statements of one call as the repository issues them (JDBC) and as PostgreSQL counts them
 * (transaction control included), and its latency, in the common no-stop case and for the one
 * observation that moves a stopped execution to STOPPING.
 */
@ApplicationScoped
public class ExecutionControlBenchmark {

    public static final int CALLS = 10_000;
    private static final int WARM_UP = 2_000;
    private static final OwnerToken OWNER = OwnerToken.of("benchmark/boot-1");

    private final JobRepository repository;
    private final MetadataSql sql;
    private final AgroalDataSource dataSource;

    ExecutionControlBenchmark(JobRepository repository, MetadataSql sql,
            @RepositoryDataSource AgroalDataSource dataSource) {
        this.repository = repository;
        this.sql = sql;
        this.dataSource = dataSource;
    }

    public List<String> run() {
        return run(CALLS);
    }

    public List<String> run(int calls) {
        Optional<PgStatementCounter> pg = PgStatementCounter.open(dataSource);
        JobExecution started = startedExecution();
        for (int i = 0; i < WARM_UP; i++) {
            observe(started);
        }

        // one call in its own unit of work, statement by statement
        Map<String, Long> pgBefore = pg.map(PgStatementCounter::snapshot).orElse(Map.of());
        long jdbcBefore = sql.statementsExecuted();
        ExecutionControl control = observe(started);
        long jdbcOne = sql.statementsExecuted() - jdbcBefore;
        Optional<Map<String, Long>> pgOne = pg.map(counter -> PgStatementCounter.delta(pgBefore, counter.snapshot()));

        // many calls: latency and statements per call
        List<Long> nanos = new ArrayList<>(calls);
        Map<String, Long> pgManyBefore = pg.map(PgStatementCounter::snapshot).orElse(Map.of());
        long jdbcManyBefore = sql.statementsExecuted();
        for (int i = 0; i < calls; i++) {
            long start = System.nanoTime();
            observe(started);
            nanos.add(System.nanoTime() - start);
        }
        long jdbcMany = sql.statementsExecuted() - jdbcManyBefore;
        Optional<Long> pgMany = pg.map(counter -> PgStatementCounter.total(
                PgStatementCounter.delta(pgManyBefore, counter.snapshot())));
        nanos.sort(null);

        // the observation that finds a stop request and moves the execution to STOPPING
        QuarkusTransaction.requiringNew().call(() -> repository.requestExecutionStop(started.id(), control.version(),
                ActorRef.of("benchmark"), Instant.now()));
        Map<String, Long> pgStopBefore = pg.map(PgStatementCounter::snapshot).orElse(Map.of());
        long jdbcStopBefore = sql.statementsExecuted();
        ExecutionControl stopping = observe(started);
        long jdbcStop = sql.statementsExecuted() - jdbcStopBefore;
        Optional<Map<String, Long>> pgStop = pg.map(counter -> PgStatementCounter.delta(pgStopBefore, counter.snapshot()));
        if (stopping.status() != ExecutionStatus.STOPPING) {
            throw new IllegalStateException("the stop request did not move the execution to STOPPING: " + stopping);
        }

        Map<String, Object> steady = new LinkedHashMap<>();
        steady.put("workload", "observe-execution-control");
        steady.put("date", LocalDate.now().toString());
        steady.put("case", "no stop requested");
        steady.put("jdbcStatementsPerCall", jdbcOne);
        steady.put("pgStatementsPerCall", pgOne.map(PgStatementCounter::total).orElse(null));
        steady.put("pgStatements", pgOne.map(ExecutionControlBenchmark::shortened).orElse(null));
        steady.put("calls", calls);
        steady.put("jdbcStatementsPerCallOverRun", (double) jdbcMany / calls);
        steady.put("pgStatementsPerCallOverRun", pgMany.map(n -> (double) n / calls).orElse(null));
        steady.put("p50Micros", nanos.get(nanos.size() / 2) / 1e3);
        steady.put("p99Micros", nanos.get((int) (nanos.size() * 0.99)) / 1e3);
        steady.put("note", "each call in its own transaction, commit included");

        Map<String, Object> stop = new LinkedHashMap<>();
        stop.put("workload", "observe-execution-control");
        stop.put("date", LocalDate.now().toString());
        stop.put("case", "stop requested, STARTED to STOPPING");
        stop.put("jdbcStatementsPerCall", jdbcStop);
        stop.put("pgStatementsPerCall", pgStop.map(PgStatementCounter::total).orElse(null));
        stop.put("pgStatements", pgStop.map(ExecutionControlBenchmark::shortened).orElse(null));
        return List.of(JsonLine.of(steady), JsonLine.of(stop));
    }

    private ExecutionControl observe(JobExecution execution) {
        return QuarkusTransaction.requiringNew().call(() -> repository.observeExecutionControl(execution.id(), OWNER,
                Instant.now()));
    }

    private JobExecution startedExecution() {
        return QuarkusTransaction.requiringNew().call(() -> {
            JobInstanceKey key = JobInstanceKey.of(JobName.of("control-bench"), Map.of("run", UUID.randomUUID().toString()));
            JobExecution created = repository.createJobExecution(repository.selectOrCreateJobInstance(key).instance().id());
            JobExecution claimed = repository.claimExecutionOwner(created.id(), created.version(), OWNER, Instant.now());
            return repository.transitionJobExecution(claimed.id(), claimed.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        });
    }

    /** The statement texts, cut short enough to read on one line. */
    private static Map<String, Long> shortened(Map<String, Long> calls) {
        Map<String, Long> shortened = new LinkedHashMap<>();
        calls.forEach((query, n) -> shortened.merge(query.length() > 60 ? query.substring(0, 60) + "..." : query, n,
                Long::sum));
        return shortened;
    }
}
