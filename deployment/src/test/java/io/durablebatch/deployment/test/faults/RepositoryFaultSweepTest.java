package io.durablebatch.deployment.test.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.faults.FaultInjectingDriver.Kind;
import io.durablebatch.deployment.test.faults.FaultSweep.Case;
import io.durablebatch.deployment.test.faults.FaultSweep.Outcome;
import io.durablebatch.deployment.test.faults.FaultSweep.Resolution;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Fault injection at the kernel's repository statements: whether the connection breaks before or
 * after a statement, or the acknowledgement of its commit is lost, the execution always ends in a
 * state that the kernel leaves by itself or that the documented operator action leaves, and every
 * item is written exactly once.
 * <p>
 * Each test first runs its job cleanly and records its K repository statements (see
 * {@link FaultInjectingDriver} for which count), then runs it once per case, each with a single
 * fault, judged by {@link FaultSweep}. Leases are short ({@value #LEASE_SECONDS}s, swept every
 * 500ms) and an execution whose owner is lost restarts automatically, so a run that loses its owner
 * completes within a few lease durations; an attempt active for {@value #BOUND_LEASES} lease
 * durations fails the case. The repository has its own table prefix ({@value #TABLE_PREFIX}), so
 * that the lease sweepers of other test processes sharing the database, which define other jobs,
 * never recover (and so never fail to restart) the executions of this test.
 * <p>
 * Which cases run is chosen by system properties (pass them to Maven with {@code -D}):
 * <ul>
 * <li>by default, a deterministic sample: the first and the last occurrence of each distinct
 * statement of the clean run, with each of the three fault kinds;</li>
 * <li>{@code -Dfaults.sweep=full}: every ordinal 1..K with each kind (about K x 3 runs per job);</li>
 * <li>{@code -Dfaults.ordinals=7,12} and/or {@code -Dfaults.kinds=COMMIT_LOST}: just these, to
 * reproduce one case (with {@code -Dtest=RepositoryFaultSweepTest#everyFaultInAChunk*} for one job).
 * The ordinals of a partitioned step's workers interleave differently from run to run: a case
 * names the statement it actually faulted.</li>
 * </ul>
 * Every case is logged (category {@code io.durablebatch.deployment.test.faults}) with its path
 * through the attempts; a failure lists every failing case, with the faulted SQL and the warnings
 * and errors logged during its run.
 */
class RepositoryFaultSweepTest {

    /** A repository of its own: other test processes sharing the database never sweep its executions. */
    static final String TABLE_PREFIX = "fsweep_";
    static final int LEASE_SECONDS = 2;
    static final int BOUND_LEASES = 5;

    @RegisterExtension
    static final QuarkusUnitTest APP = FaultJobs.app(TABLE_PREFIX, FaultSweep.class)
            .overrideConfigKey("quarkus.durable-batch.lease.duration", LEASE_SECONDS + "s")
            .overrideConfigKey("quarkus.durable-batch.lease.sweep-interval", "500ms")
            .overrideConfigKey("quarkus.durable-batch.lease.restart-on-owner-loss", "3")
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "500ms")
            .overrideConfigKey("quarkus.log.category.\"io.durablebatch\".level", "INFO");

    private static final Logger LOG = Logger.getLogger(RepositoryFaultSweepTest.class);

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    @Inject
    AgroalDataSource dataSource;

    FaultSweep sweep;

    @BeforeEach
    void setUp() throws SQLException {
        FaultJobs.createTarget(dataSource);
        sweep = new FaultSweep(operator, repository, dataSource, Duration.ofSeconds(LEASE_SECONDS * BOUND_LEASES));
    }

    @Test
    void everyFaultInAChunkStepAndATaskletEndsRecoverableWithEveryItemOnce() throws Exception {
        sweepAndAssert(FaultJobs.CHUNK_THEN_TASKLET);
    }

    @Test
    void everyFaultInAPartitionedStepEndsRecoverableWithEveryItemOnce() throws Exception {
        sweepAndAssert(FaultJobs.PARTITIONED);
    }

    /**
     * A chunk whose commit's acknowledgement is lost did commit: its items are not written again (the
     * target's key would refuse them and fail the step), the attempt adopts the commit and completes
     * by itself. Every chunk progress record of a clean run, faulted in turn.
     */
    @Test
    void aUnitOfWorkWhoseCommitAcknowledgementIsLostIsAdoptedNotWrittenAgain() throws Exception {
        String job = FaultJobs.CHUNK_THEN_TASKLET;
        List<String> statements = sweep.cleanRun(job);
        List<Case> lostAcknowledgements = IntStream.range(0, statements.size())
                .filter(i -> statements.get(i).contains("step_execution SET checkpoint"))
                .mapToObj(i -> new Case(job, i + 1, Kind.COMMIT_LOST))
                .toList();
        assertEquals(FaultJobs.CHUNK_ITEMS / FaultJobs.COMMIT_INTERVAL, lostAcknowledgements.size(),
                "every chunk but the last one (which records the step's completion) records its progress");
        List<Outcome> outcomes = sweep.runAll(lostAcknowledgements);
        assertEquals(List.of(), outcomes.stream().filter(o -> o.resolution() != Resolution.BY_ITSELF)
                .map(Outcome::describe).toList());
    }

    private void sweepAndAssert(String job) throws Exception {
        List<String> statements = sweep.cleanRun(job);
        assertFalse(statements.isEmpty(), "no repository statement was counted on the kernel's threads "
                + FaultInjectingDriver.KERNEL_THREADS + ": were they renamed?");
        List<String> again = sweep.cleanRun(job);
        if (!again.equals(statements)) {
            // a parent waiting for its partitions polls: its statements depend on timing
            LOG.infof("Fault sweep: another clean run of %s issued K = %d statements, differing from #%d", job,
                    again.size(), IntStream.range(0, Math.min(again.size(), statements.size()))
                            .filter(i -> !again.get(i).equals(statements.get(i))).findFirst()
                            .orElse(Math.min(again.size(), statements.size())) + 1);
        }
        LOG.infof("Fault sweep: a clean run of %s issues K = %d repository statements:%n%s", job, statements.size(),
                IntStream.range(0, statements.size()).mapToObj(i -> "  #" + (i + 1) + " " + statements.get(i))
                        .collect(Collectors.joining("\n")));

        long began = System.nanoTime();
        List<Outcome> outcomes = sweep.runAll(FaultSweep.cases(job, statements));
        List<Outcome> failed = outcomes.stream().filter(outcome -> !outcome.passed()).toList();
        Map<Resolution, List<String>> byResolution = outcomes.stream().collect(Collectors.groupingBy(Outcome::resolution,
                () -> new EnumMap<>(Resolution.class), Collectors.mapping(o -> o.fault().ordinal() + " " + o.fault().kind()
                        + (o.fired().isPresent() ? "" : " (never fired)"), Collectors.toList())));
        LOG.infof("Fault sweep of %s: %d cases in %d s, K = %d%n%s", job, outcomes.size(),
                Duration.ofNanos(System.nanoTime() - began).toSeconds(), statements.size(),
                byResolution.entrySet().stream().map(e -> "  " + e.getKey() + " (" + e.getValue().size() + "): "
                        + e.getValue()).collect(Collectors.joining("\n")));
        assertEquals(List.of(), failed.stream().map(Outcome::fault).toList(), () -> failed.size() + " of "
                + outcomes.size() + " faults in " + job + " (K = " + statements.size() + ") broke the rule:\n"
                + failed.stream().map(Outcome::describe).collect(Collectors.joining("\n")));
    }
}
