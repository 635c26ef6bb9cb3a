package io.durablebatch.deployment.test.listing;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static io.durablebatch.execution.ExecutionStatus.STOPPED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageCursor;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.control.ExecutionOwnership;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.control.OperatorRecordDraft;
import io.durablebatch.repository.control.OperatorTarget;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionHold;
import io.durablebatch.repository.retention.RetentionRecord;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The operator's listings: keyset pages newest first (partitions in plan order), each one statement,
 * every filter applied, a cursor valid only for its own listing, and bad page requests refused
 * naming the field.
 */
class RepositoryListingsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false");

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    MetadataSql sql;

    @Test
    void aJobsExecutionsArePagedNewestFirstOneStatementAPage() {
        JobName job = freshJobName("listed");
        List<JobExecution> created = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            created.add(attempt(job, i % 2 == 0 ? COMPLETED : FAILED));
        }
        List<JobExecution> newestFirst = reversed(created);

        List<JobExecution> listed = all(page -> assertStatements(sql, 1,
                () -> repository.findJobExecutions(ExecutionQuery.all().job(job), page)), 3, 3);
        assertEquals(newestFirst, listed);
        assertTrue(listed.stream().allMatch(execution -> execution.jobName().equals(job)), "each names its job");
    }

    @Test
    void everyFilterHolds() {
        JobName job = freshJobName("filtered");
        JobExecution completed = attempt(job, COMPLETED);
        JobExecution failed = attempt(job, FAILED);
        JobExecution stopped = attempt(job, STOPPED);
        OwnerToken owner = OwnerToken.of("node-listings/" + job.value().substring(job.value().length() - 12));
        JobExecution owned = given.ownedBy(owner, STARTED);

        assertEquals(List.of(stopped, failed), tx(() -> repository.findJobExecutions(
                ExecutionQuery.all().job(job).statuses(Set.of(FAILED, STOPPED)), PageRequest.first(10))).items());
        // without a job the statuses choose the index: the newest FAILED and STOPPED of every job
        List<JobExecution> failedOrStopped = tx(() -> repository.findJobExecutions(
                ExecutionQuery.all().statuses(Set.of(FAILED, STOPPED)), PageRequest.first(2))).items();
        assertEquals(List.of(stopped, failed), failedOrStopped);
        assertEquals(List.of(failed, completed), tx(() -> repository.findJobExecutions(ExecutionQuery.all().job(job)
                .createdFrom(completed.createdAt()).createdBefore(stopped.createdAt()), PageRequest.first(10))).items());
        assertEquals(List.of(owned), tx(() -> repository.findJobExecutions(ExecutionQuery.all().ownedBy(owner),
                PageRequest.first(10))).items());
        assertEquals(List.of(), tx(() -> repository.findJobExecutions(ExecutionQuery.all().job(job).ownedBy(owner),
                PageRequest.first(10))).items());
        // the unfiltered listing starts with the newest execution of all
        assertEquals(List.of(owned), tx(() -> repository.findJobExecutions(ExecutionQuery.all(), PageRequest.first(1)))
                .items());
        // ended, so that no lease is left for another test's sweeper to recover
        given.move(owned, COMPLETED);
    }

    @Test
    void aJobsInstancesArePagedNewestFirst() {
        JobName job = freshJobName("instances");
        List<JobInstance> created = IntStream.range(0, 5).mapToObj(i -> tx(() -> repository
                .selectOrCreateJobInstance(JobInstanceKey.of(job, Map.of("run", (long) i))).instance())).toList();
        List<JobInstance> listed = all(page -> repository.findJobInstances(job, page), 2, 3);
        assertEquals(reversed(created), listed);
        assertEquals(List.of(), tx(() -> repository.findJobInstances(freshJobName("none"), PageRequest.first(5)))
                .items());
    }

    @Test
    void aJobsInstancesAreCountedWithoutOthersJobs() {
        JobName job = freshJobName("counted");
        IntStream.range(0, 3).forEach(i -> tx(() -> repository
                .selectOrCreateJobInstance(JobInstanceKey.of(job, Map.of("run", (long) i)))));
        tx(() -> repository.selectOrCreateJobInstance(JobInstanceKey.of(freshJobName("other"), Map.of("run", 0L))));
        assertEquals(3, tx(() -> repository.countJobInstances(job)));
        assertEquals(0, tx(() -> repository.countJobInstances(freshJobName("none"))));
    }

    @Test
    void aPartitionPlanIsPagedInPlanOrder() {
        StepExecution parent = given.stepExecutionIn(STARTED);
        List<PartitionPlanEntry> entries = List.of("e", "d", "c", "b", "a").stream()
                .map(key -> PartitionPlanEntry.of(key, new byte[0])).toList();
        tx(() -> repository.createStepPartitionPlan(parent.id(), entries));
        List<StepPartition> listed = all(page -> repository.stepPartitions(parent.id(), page), 2, 3);
        assertEquals(List.of(1, 2, 3, 4, 5), listed.stream().map(StepPartition::ordinal).toList());
        assertEquals(List.of(), tx(() -> repository.stepPartitions(given.stepExecutionIn(STARTED).id(),
                PageRequest.first(5))).items());
    }

    @Test
    void theAuditsAndHoldsArePagedNewestFirstOfAnInstanceOrOfAll() {
        JobInstance instance = given.newInstance("audited");
        ActorRef actor = ActorRef.of("alice");
        List<OperatorRecord> operator = IntStream.range(0, 3).mapToObj(i -> tx(() -> repository
                .appendOperatorRequest(new OperatorRecordDraft(OperatorAction.START, OperationId.of("listing-"
                        + instance.id() + "-" + i), actor, OperatorTarget.instance(instance.id()),
                        RequestDigest.sha256("start " + i), "STARTED", now()))))
                .toList();
        assertEquals(reversed(operator), all(page -> repository.findOperatorRecords(Optional.of(instance.id()), page),
                2, 2));
        assertEquals(operator.get(2), tx(() -> repository.findOperatorRecords(Optional.empty(), PageRequest.first(1)))
                .items().get(0));

        List<RetentionRecord> retention = IntStream.range(0, 3).mapToObj(i -> tx(() -> repository
                .appendRetentionAction(new RetentionRecordDraft(RetentionAction.PLACE_HOLD, OperationId.of("listing-"
                        + instance.id() + "-" + i), actor, Optional.of(instance.id()), RequestDigest.sha256("hold " + i),
                        "PLACED", now()))))
                .toList();
        assertEquals(reversed(retention), all(page -> repository.findRetentionRecords(Optional.of(instance.id()),
                page), 2, 2));

        JobExecution lost = given.ownedBy(OwnerToken.of("node-gone/boot-1"), STARTED);
        tx(() -> repository.recoverJobExecution(lost.id(), new RecoveryRequest(OperationId.of("listing-recover-"
                + lost.id()), actor, ReasonCode.of("OWNER_LOST"), RecoveryResolution.FAILED, lost.version(), now(),
                true)));
        List<RecoveryDecision> decisions = tx(() -> repository.findRecoveryDecisions(Optional.of(lost.jobInstanceId()),
                PageRequest.first(5))).items();
        assertEquals(List.of(lost.id()), decisions.stream().map(RecoveryDecision::jobExecutionId).toList());
        assertEquals(decisions, tx(() -> repository.findRecoveryDecisions(Optional.empty(), PageRequest.first(1)))
                .items());

        JobInstance older = given.newInstance("held");
        JobInstance newer = given.newInstance("held");
        RetentionHold first = tx(() -> repository.placeInstanceHold(older.id(), actor, ReasonCode.of("AUDIT"), now()));
        RetentionHold second = tx(() -> repository.placeInstanceHold(newer.id(), actor, ReasonCode.of("AUDIT"), now()));
        Page<RetentionHold> holds = tx(() -> repository.findInstanceHolds(PageRequest.first(1)));
        assertEquals(List.of(second), holds.items());
        assertEquals(List.of(first), tx(() -> repository.findInstanceHolds(PageRequest.after(holds.next().orElseThrow(),
                1))).items());
        tx(() -> repository.releaseInstanceHold(older.id()));
        tx(() -> repository.releaseInstanceHold(newer.id()));
    }

    @Test
    void ownershipShowsTheOwnerTheStopRequestAndTheLeaseOnTheDatabaseClock() {
        OwnerToken owner = OwnerToken.of("node-own/boot-2");
        JobExecution running = given.ownedBy(owner, STARTED);
        ExecutionOwnership owned = tx(() -> repository.executionOwnership(running.id())).orElseThrow();
        assertEquals(Optional.of(owner), owned.owner());
        assertTrue(owned.ownerClaimedAt().isPresent());
        assertTrue(owned.leaseLive(), "a lease just claimed is live");
        assertTrue(owned.leaseExpiresAt().orElseThrow().isAfter(Instant.now().minus(Duration.ofMinutes(1))));
        assertFalse(owned.stopRequested());

        tx(() -> repository.requestExecutionStop(running.id(), running.version(), ActorRef.of("bob"), now()));
        ExecutionOwnership stopping = tx(() -> repository.executionOwnership(running.id())).orElseThrow();
        assertEquals(Optional.of(ActorRef.of("bob")), stopping.stopRequestedBy());
        assertTrue(stopping.stopRequested());
        given.move(tx(() -> repository.getJobExecution(running.id())).orElseThrow(), STOPPED);

        ExecutionOwnership unclaimed = tx(() -> repository.executionOwnership(given.jobExecutionIn(FAILED).id()))
                .orElseThrow();
        assertEquals(Optional.empty(), unclaimed.owner());
        assertFalse(unclaimed.leaseLive(), "no lease, not live");
        assertEquals(Optional.empty(), tx(() -> repository.executionOwnership(
                JobExecutionId.of(Long.MAX_VALUE))));
    }

    @Test
    void badPageRequestsAreRefusedNamingTheField() {
        assertMessage("page.size", () -> PageRequest.first(0));
        assertMessage("page.size", () -> PageRequest.first(PageRequest.MAX_SIZE + 1));
        assertMessage("page.after", () -> PageCursor.of("execution 12"));
        assertMessage("page.after", () -> tx(() -> repository.findJobExecutions(ExecutionQuery.all(),
                PageRequest.after(PageCursor.of("instance:12"), 5))));
        assertMessage("page.after", () -> tx(() -> repository.findJobExecutions(ExecutionQuery.all(),
                PageRequest.after(PageCursor.of("execution:twelve"), 5))));
        Instant at = now();
        assertMessage("createdFrom must be before createdBefore",
                () -> ExecutionQuery.all().createdFrom(at).createdBefore(at));
    }

    private static <T> List<T> reversed(List<T> items) {
        List<T> copy = new ArrayList<>(items);
        Collections.reverse(copy);
        return copy;
    }

    private static void assertMessage(String fragment, Runnable call) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(refused.getMessage().contains(fragment), refused::getMessage);
    }

    private JobExecution attempt(JobName job, ExecutionStatus status) {
        JobInstance instance = tx(() -> repository.selectOrCreateJobInstance(
                JobInstanceKey.of(job, Map.of("run", System.nanoTime()))).instance());
        return given.attemptIn(instance.id(), status);
    }

    /** Reads every page of size {@code size}, asserting how many there were; the items in order. */
    private static <T> List<T> all(Function<PageRequest, Page<T>> listing, int size, int expectedPages) {
        List<T> items = new ArrayList<>();
        PageRequest page = PageRequest.first(size);
        int pages = 0;
        while (true) {
            PageRequest current = page;
            Page<T> read = tx(() -> listing.apply(current));
            pages++;
            items.addAll(read.items());
            if (read.next().isEmpty()) {
                break;
            }
            assertEquals(size, read.items().size(), "a page before the last is full");
            page = PageRequest.after(read.next().get(), size);
        }
        assertEquals(expectedPages, pages, "pages read");
        return items;
    }
}
