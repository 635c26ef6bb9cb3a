package io.durablebatch.deployment.test.faults;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.stream.Collectors;

import org.jboss.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.faults.FaultInjectingDriver.Fired;
import io.durablebatch.deployment.test.faults.FaultInjectingDriver.Kind;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;

/**
 * Runs one job once per injected fault and judges where each run ends. A run passes when its job
 * instance completes with every item written once, reached only through states that the kernel
 * leaves by itself or that a documented operator action leaves:
 * <ul>
 * <li>no attempt stays active (STARTING, STARTED, STOPPING) longer than {@link #activeBound};</li>
 * <li>no attempt is terminal while one of its step executions is active, or one of its partitions
 * is assigned and unfinished (STARTED);</li>
 * <li>an attempt the lease sweeper recovered (actor {@value #LEASE_ACTOR}) is followed by an
 * automatic restart within {@link #activeBound}; any other FAILED or STOPPED attempt is restarted
 * with {@link JobOperator#restart}, an UNKNOWN one first recovered with {@link JobOperator#recover};
 * at most {@value #MAX_OPERATOR_ACTIONS} restarts per run, and as many launches;</li>
 * <li>a launch that fails is retried with the same {@link OperatorCall}, as its documentation
 * allows.</li>
 * </ul>
 * Each run is one {@link Outcome}: its path through the attempts, the violations, and the warnings
 * and errors logged meanwhile, so a failing case explains itself.
 */
final class FaultSweep {

    private static final Logger LOG = Logger.getLogger(FaultSweep.class);
    static final String LEASE_ACTOR = "system:lease";
    /** The most restarts, automatic or by the operator, and retried launches, a run may take. */
    static final int MAX_OPERATOR_ACTIONS = 3;
    private static final Duration POLL = Duration.ofMillis(25);
    /** How long the kernel must issue no statement for a run to count as over. */
    private static final Duration QUIET = Duration.ofMillis(60);

    /** One fault to inject into one run of a job. */
    record Case(String job, int ordinal, Kind kind) {
        @Override
        public String toString() {
            return job + " #" + ordinal + " " + kind;
        }
    }

    /** How a run that kept the rule got its instance completed. */
    enum Resolution {
        /** The first attempt completed, the kernel absorbed the fault. */
        BY_ITSELF,
        /** The lease sweeper recovered an attempt and the kernel restarted it automatically. */
        AUTOMATIC_RESTART,
        /** It took an operator action: a retried launch, a restart or a recovery. */
        OPERATOR_ACTION,
        /** The rule was broken. */
        VIOLATION
    }

    /** How one run ended. */
    record Outcome(Case fault, Optional<Fired> fired, Resolution resolution, List<String> path, List<String> violations,
            Duration took, List<String> log) {

        boolean passed() {
            return violations.isEmpty();
        }

        String describe() {
            return fault + " (" + took.toMillis() + " ms) " + resolution + ", faulted: "
                    + fired.map(Fired::toString).orElse("never fired")
                    + "\n    path: " + String.join(" -> ", path)
                    + (passed() ? "" : "\n    VIOLATIONS: " + String.join("; ", violations))
                    + (log.isEmpty() ? "" : "\n    log:\n      " + String.join("\n      ", log));
        }
    }

    /** What a run went through: the attempts and actions, in order, and the rules it broke. */
    private static final class Trace {
        final List<String> path = new ArrayList<>();
        final List<String> violations = new ArrayList<>();
        int operatorActions;
        int automaticRestarts;

        Resolution resolution() {
            if (!violations.isEmpty()) {
                return Resolution.VIOLATION;
            }
            if (operatorActions > 0) {
                return Resolution.OPERATOR_ACTION;
            }
            return automaticRestarts > 0 ? Resolution.AUTOMATIC_RESTART : Resolution.BY_ITSELF;
        }
    }

    private final JobOperator operator;
    private final KernelRepository repository;
    private final AgroalDataSource dataSource;
    private final Duration activeBound;
    private final LogCapture log = new LogCapture();

    FaultSweep(JobOperator operator, KernelRepository repository, AgroalDataSource dataSource, Duration activeBound) {
        this.operator = operator;
        this.repository = repository;
        this.dataSource = dataSource;
        this.activeBound = activeBound;
    }

    /**
     * The repository statements a clean run of {@code job} issues, in order; fails unless its first
     * attempt completes, with every item once.
     */
    List<String> cleanRun(String job) throws Exception {
        FaultInjectingDriver.record();
        Outcome clean = run(new Case(job, 0, null));
        awaitQuiet("a clean run of " + job);
        if (clean.resolution() != Resolution.BY_ITSELF) {
            throw new AssertionError("a clean run of " + job + " must complete by itself, exactly: " + clean.describe());
        }
        return FaultInjectingDriver.counted();
    }

    /**
     * The cases to run for a job whose clean run issues {@code statements}, from the system properties
     * {@code faults.sweep} ({@code sample}, the default, or {@code full}), {@code faults.ordinals}
     * (a comma-separated list, overriding both) and {@code faults.kinds} (default: all).
     */
    static List<Case> cases(String job, List<String> statements) {
        Set<Integer> ordinals = new TreeSet<>();
        String only = System.getProperty("faults.ordinals", "").trim();
        if (!only.isEmpty()) {
            Arrays.stream(only.split(",")).map(String::trim).map(Integer::valueOf).forEach(ordinals::add);
        } else if (System.getProperty("faults.sweep", "sample").equals("full")) {
            for (int ordinal = 1; ordinal <= statements.size(); ordinal++) {
                ordinals.add(ordinal);
            }
        } else {
            // the first and the last occurrence of every distinct statement: each repository call of
            // the kernel, where it begins its run and where it ends it
            Map<String, int[]> occurrences = new LinkedHashMap<>();
            for (int i = 0; i < statements.size(); i++) {
                int ordinal = i + 1;
                occurrences.computeIfAbsent(statements.get(i), sql -> new int[] { ordinal, ordinal })[1] = ordinal;
            }
            occurrences.values().forEach(firstAndLast -> {
                ordinals.add(firstAndLast[0]);
                ordinals.add(firstAndLast[1]);
            });
        }
        String kindsProperty = System.getProperty("faults.kinds", "").trim();
        Set<Kind> kinds = kindsProperty.isEmpty() ? EnumSet.allOf(Kind.class)
                : Arrays.stream(kindsProperty.split(",")).map(String::trim).map(Kind::valueOf)
                        .collect(Collectors.toCollection(() -> EnumSet.noneOf(Kind.class)));
        List<Case> cases = new ArrayList<>();
        for (int ordinal : ordinals) {
            for (Kind kind : kinds) {
                cases.add(new Case(job, ordinal, kind));
            }
        }
        return cases;
    }

    /** Runs every case; returns the outcomes, in order. */
    List<Outcome> runAll(List<Case> cases) throws Exception {
        List<Outcome> outcomes = new ArrayList<>();
        for (Case fault : cases) {
            FaultInjectingDriver.arm(fault.ordinal(), fault.kind());
            Outcome outcome = run(fault);
            outcomes.add(outcome);
            LOG.infof("Fault sweep: %s %s", outcome.passed() ? "PASSED" : "FAILED", outcome.describe());
            awaitQuiet(fault);
        }
        return outcomes;
    }

    /**
     * Waits until the kernel's threads issue no statement for a moment: what an ended run's threads
     * still do (an owner that learns its execution was recovered, say) belongs to that run, and must
     * not shift the ordinals of the next case. One still busy after a while is said in the log.
     */
    private void awaitQuiet(Object after) throws InterruptedException {
        long deadline = System.nanoTime() + activeBound.toNanos() / 2;
        int seen = -1;
        List<String> counted;
        while ((counted = FaultInjectingDriver.counted()).size() != seen) {
            if (System.nanoTime() > deadline) {
                LOG.warnf("Fault sweep: the kernel still issues statements after %s (the latest: %s): the ordinals "
                        + "of the next cases may be shifted", after, counted.get(counted.size() - 1));
                return;
            }
            seen = counted.size();
            Thread.sleep(QUIET.toMillis());
        }
    }

    private Outcome run(Case fault) throws Exception {
        String run = UUID.randomUUID().toString();
        JobParameters parameters = JobParameters.of("run", run);
        Trace trace = new Trace();
        long began = System.nanoTime();
        log.start();
        try {
            Optional<JobExecutionId> launched = launch(fault.job(), parameters, trace);
            if (launched.isPresent()) {
                JobInstanceId instance = tx(() -> repository.getJobExecution(launched.get())).orElseThrow().jobInstanceId();
                if (follow(instance, trace)) {
                    checkEveryAttempt(instance, trace.violations);
                    checkItems(fault.job(), run, trace.violations);
                }
            }
        } finally {
            log.stop();
        }
        // a fault is armed for one run only: what fired belongs to it
        Optional<Fired> fired = FaultInjectingDriver.fired();
        Resolution resolution = trace.resolution();
        return new Outcome(fault, fired, resolution, trace.path, trace.violations,
                Duration.ofNanos(System.nanoTime() - began),
                resolution == Resolution.BY_ITSELF || resolution == Resolution.AUTOMATIC_RESTART ? List.of() : log.lines());
    }

    /** Starts the job; a failed start is retried with the same call, which a recorded launch answers. */
    private Optional<JobExecutionId> launch(String job, JobParameters parameters, Trace trace)
            throws InterruptedException {
        OperatorCall call = OperatorCall.by("fault-sweep");
        for (int attempt = 1; attempt <= MAX_OPERATOR_ACTIONS; attempt++) {
            try {
                JobExecutionId id = operatorCall(() -> operator.start(job, parameters, call));
                trace.path.add((attempt == 1 ? "start" : "start retried") + " -> execution " + id);
                return Optional.of(id);
            } catch (RuntimeException e) {
                trace.path.add("start failed: " + summary(e));
                trace.operatorActions++;
                Thread.sleep(100);
            }
        }
        trace.violations.add("the launch failed " + MAX_OPERATOR_ACTIONS + " times with the same operator call");
        return Optional.empty();
    }

    /**
     * Follows the attempts of the instance until one completes; returns false if it judged the run
     * failed before that.
     */
    private boolean follow(JobInstanceId instance, Trace trace) throws Exception {
        List<String> path = trace.path;
        List<String> violations = trace.violations;
        Map<JobExecutionId, Long> activeSince = new HashMap<>();
        while (true) {
            JobExecution latest = tx(() -> repository.latestJobExecution(instance)).orElseThrow();
            if (latest.status().isActive()) {
                long since = activeSince.computeIfAbsent(latest.id(), id -> System.nanoTime());
                if (System.nanoTime() - since > activeBound.toNanos()) {
                    path.add(describe(latest) + " for " + activeBound.toSeconds() + "s");
                    violations.add("execution " + latest.id() + " (attempt " + latest.attempt() + ") is still "
                            + latest.status() + " after " + activeBound.toSeconds() + "s: " + steps(latest));
                    return false;
                }
                Thread.sleep(POLL.toMillis());
                continue;
            }
            path.add(describe(latest));
            violations.addAll(activeChildren(latest));
            switch (latest.status()) {
                case COMPLETED:
                    return true;
                case ABANDONED:
                    violations.add("execution " + latest.id() + " ended ABANDONED: its instance can never complete");
                    return false;
                default:
                    break;
            }
            if (trace.operatorActions + trace.automaticRestarts >= MAX_OPERATOR_ACTIONS) {
                violations.add("the instance did not complete after " + MAX_OPERATOR_ACTIONS + " restarts");
                return false;
            }
            Optional<RecoveryDecision> recovery = tx(() -> repository.recoveryDecision(latest.id()));
            recovery.ifPresent(decision -> path.add("recovered by " + decision.actor().value() + " ("
                    + decision.reason().value() + ")"));
            if (recovery.isPresent() && recovery.get().actor().value().equals(LEASE_ACTOR)) {
                if (awaitNewerAttempt(instance, latest)) {
                    path.add("automatic restart");
                    trace.automaticRestarts++;
                    continue;
                }
                violations.add("execution " + latest.id() + " was recovered by the lease sweeper but not restarted "
                        + "automatically within " + activeBound.toSeconds() + "s");
            }
            trace.operatorActions++;
            try {
                OperatorCall call = OperatorCall.by("fault-sweep");
                if (latest.status() == ExecutionStatus.UNKNOWN) {
                    operatorCall(() -> operator.recover(latest.id(), latest.version(), RecoveryResolution.FAILED,
                            ReasonCode.of("FAULT_SWEEP"), call));
                    path.add("operator recover");
                } else {
                    operatorCall(() -> operator.restart(latest.id(), call));
                    path.add("operator restart");
                }
            } catch (RuntimeException e) {
                // e.g. an automatic restart came first: the next round follows it
                path.add("operator action refused: " + summary(e));
            }
        }
    }

    private boolean awaitNewerAttempt(JobInstanceId instance, JobExecution recovered) throws InterruptedException {
        long deadline = System.nanoTime() + activeBound.toNanos();
        while (System.nanoTime() < deadline) {
            JobExecution latest = tx(() -> repository.latestJobExecution(instance)).orElseThrow();
            if (!latest.id().equals(recovered.id())) {
                return true;
            }
            Thread.sleep(POLL.toMillis());
        }
        return false;
    }

    /** Every ended attempt of the instance: none may have left a step or partition active. */
    private void checkEveryAttempt(JobInstanceId instance, List<String> violations) {
        for (JobExecution execution : tx(() -> repository.jobExecutions(instance))) {
            if (!execution.status().isActive()) {
                activeChildren(execution).stream().filter(v -> !violations.contains(v)).forEach(violations::add);
                writtenTwice(execution).ifPresent(violations::add);
            }
        }
    }

    /**
     * A step failed by the target's key: the kernel wrote an item again, a chunk tried again after
     * its commit's acknowledgement was lost, say.
     */
    private Optional<String> writtenTwice(JobExecution execution) {
        return tx(() -> repository.stepExecutions(execution.id())).stream()
                .filter(step -> step.failure().filter(f -> f.message().contains("duplicate key")).isPresent())
                .map(step -> "step '" + step.stepName().value() + "' (" + step.id() + ") wrote an item twice: "
                        + abbreviate(step.failure().orElseThrow().message()))
                .findFirst();
    }

    /** What of a terminal execution is still active: step executions, and assigned unfinished partitions. */
    private List<String> activeChildren(JobExecution execution) {
        List<String> active = new ArrayList<>();
        for (StepExecution step : tx(() -> repository.stepExecutions(execution.id()))) {
            if (step.status().isActive()) {
                active.add("execution " + execution.id() + " is " + execution.status() + " while its step '"
                        + step.stepName().value() + "' (" + step.id() + ") is " + step.status());
            }
            for (StepPartition partition : tx(() -> repository.stepPartitionPlan(step.id()))) {
                if (partition.status().isActive() && !partition.isUnassigned()) {
                    active.add("execution " + execution.id() + " is " + execution.status() + " while partition "
                            + partition.ordinal() + " of step '" + step.stepName().value() + "' is "
                            + partition.status() + " (worker " + partition.worker().map(Object::toString).orElse("none")
                            + ")");
                }
            }
        }
        return active;
    }

    private void checkItems(String job, String run, List<String> violations) throws SQLException {
        long[] rows = FaultJobs.rowsAndDistinctIds(dataSource, run);
        int expected = FaultJobs.expectedRows(job);
        if (rows[0] != expected || rows[1] != expected) {
            violations.add("items: " + rows[0] + " rows of " + rows[1] + " distinct ids, expected each of the "
                    + expected + " items once");
        }
    }

    private String describe(JobExecution execution) {
        return "execution " + execution.id() + " attempt " + execution.attempt() + " " + execution.status()
                + (execution.status().isActive() ? ""
                        : " (" + execution.exitStatus().code()
                                + execution.failure().map(f -> ": " + abbreviate(f.message())).orElse("") + ")");
    }

    private String steps(JobExecution execution) {
        return tx(() -> repository.stepExecutions(execution.id())).stream()
                .map(step -> step.stepName().value() + " " + step.id() + " " + step.status()).toList().toString();
    }

    private static <T> T operatorCall(Callable<T> call) {
        try {
            return FaultInjectingDriver.launching(call);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String summary(Throwable failure) {
        StringBuilder summary = new StringBuilder(failure.getClass().getSimpleName() + ": "
                + abbreviate(String.valueOf(failure.getMessage())));
        for (Throwable cause = failure.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            summary.append(" / ").append(cause.getClass().getSimpleName()).append(": ")
                    .append(abbreviate(String.valueOf(cause.getMessage())));
        }
        return summary.toString();
    }

    private static String abbreviate(String text) {
        String line = text.replace('\n', ' ');
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    /**
     * The warnings and errors logged during one run, and the kernel's own INFO lines (an attempt
     * started or ended, a plan resumed), with the thread that logged them and the causes' messages.
     */
    private static final class LogCapture extends Handler {
        private final List<String> lines = new ArrayList<>();
        private final java.util.logging.Logger root = java.util.logging.Logger.getLogger("");

        synchronized void start() {
            lines.clear();
            root.addHandler(this);
        }

        synchronized void stop() {
            root.removeHandler(this);
        }

        synchronized List<String> lines() {
            return List.copyOf(lines);
        }

        @Override
        public void publish(LogRecord record) {
            String logger = String.valueOf(record.getLoggerName());
            boolean kernel = logger.startsWith("io.durablebatch.runtime");
            if (record.getLevel().intValue() < (kernel ? Level.INFO : Level.WARNING).intValue()
                    || logger.startsWith(FaultSweep.class.getName())) {
                return;
            }
            String message = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
            String thread = record instanceof ExtLogRecord ext ? ext.getThreadName() : "?";
            String line = record.getLevel() + " [" + logger.substring(logger.lastIndexOf('.') + 1) + "] (" + thread
                    + ") " + abbreviate(String.valueOf(message))
                    + (record.getThrown() == null ? "" : " <- " + summary(record.getThrown()));
            synchronized (this) {
                if (lines.size() < 60) {
                    lines.add(line);
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
