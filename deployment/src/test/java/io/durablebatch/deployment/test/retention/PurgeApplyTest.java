package io.durablebatch.deployment.test.retention;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.retention.RetentionFixtures.everyRow;
import static io.durablebatch.deployment.test.retention.RetentionFixtures.freshJob;
import static io.durablebatch.deployment.test.retention.RetentionFixtures.instance;
import static io.durablebatch.deployment.test.retention.RetentionFixtures.storedRows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestApp;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.Rows;
import io.durablebatch.operator.OperatorAction;
import io.durablebatch.operator.OperatorRecordDraft;
import io.durablebatch.operator.OperatorTarget;
import io.durablebatch.repository.ActorRef;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.ExecutionVersion;
import io.durablebatch.repository.ExitStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobInstance;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.OperationId;
import io.durablebatch.repository.ReasonCode;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.RequestDigest;
import io.durablebatch.retention.PurgeCandidate;
import io.durablebatch.retention.PurgeCounts;
import io.durablebatch.retention.PurgePlan;
import io.durablebatch.retention.PurgePlanRequest;
import io.durablebatch.retention.PurgeSurvey;
import io.durablebatch.retention.RetentionAction;
import io.durablebatch.retention.RetentionRecordDraft;
import io.durablebatch.runtime.retention.PurgeStore;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC 9: applying a plan re-validates every candidate and deletes the batch, children first, in a
 * fixed number of set-based statements, or deletes nothing at all when any candidate changed.
 */
class PurgeApplyTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestApp.with(RepositoryTestSupport.class, Rows.class,
            RetentionFixtures.class);

    @Inject
    JobRepository repository;

    @Inject
    MetadataSql sql;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void deletesTheBatchChildrenFirstAndCountsEachTable() {
        JobName job = freshJob("purge");
        List<JobInstanceId> batch = instances(job, 3);
        PurgePlan plan = survey(job).plan();
        JobInstance bystander = instance(repository, freshJob("purge-bystander"), 3, ExecutionStatus.COMPLETED);
        Map<String, Long> bystanderRows = storedRows(dataSource, List.of(bystander.id()));

        PurgeCounts counts = tx(() -> repository.applyPurge(plan));

        assertEquals(List.of("step_execution", "job_execution", "job_instance"), List.copyOf(counts.deletedRows().keySet()));
        assertEquals(Map.of("step_execution", 18L, "job_execution", 6L, "job_instance", 3L), counts.deletedRows());
        assertEquals(3, counts.jobInstances());
        assertEquals(Map.of("step_execution", 0L, "job_execution", 0L, "job_instance", 0L, "retention_hold", 0L),
                storedRows(dataSource, batch));
        assertEquals(bystanderRows, storedRows(dataSource, List.of(bystander.id())));
        assertTrue(tx(() -> repository.getJobInstance(batch.get(0))).isEmpty());
    }

    @Test
    void applyingCostsTheSameStatementsForOneInstanceAsForFifty() {
        JobName small = freshJob("purge-small");
        JobName large = freshJob("purge-large");
        instances(small, 1);
        instances(large, 50);
        PurgePlan one = survey(small).plan();
        PurgePlan fifty = survey(large).plan();

        long forOne = statementsOf(one);
        long forFifty = statementsOf(fifty);

        // lock the instances, re-validate them, then one DELETE per owned table
        assertEquals(2 + PurgeStore.OWNED_ROWS.size(), forOne);
        assertEquals(forOne, forFifty);
    }

    @Test
    void anEmptyPlanDeletesNothingAndIssuesNoStatement() {
        PurgeCounts counts = QuarkusTransaction.requiringNew().call(() -> {
            long statements = sql.statementsExecuted();
            PurgeCounts applied = repository.applyPurge(new PurgePlan(List.of()));
            assertEquals(0, sql.statementsExecuted() - statements);
            return applied;
        });

        assertEquals(0, counts.total());
    }

    @Test
    void auditRowsOutliveWhatTheyDescribe() {
        JobName job = freshJob("purge-audit");
        JobInstance instance = instance(repository, job, 1, ExecutionStatus.FAILED);
        JobExecution failed = tx(() -> repository.latestJobExecution(instance.id())).orElseThrow();
        JobExecution restarted = tx(() -> {
            JobExecution created = repository.createJobExecution(instance.id());
            return repository.transitionJobExecution(created.id(), created.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, now()));
        });
        OperationId recovery = OperationId.of("recover-" + restarted.id());
        tx(() -> repository.recoverJobExecution(restarted.id(), new RecoveryRequest(recovery, ActorRef.of("ops"),
                ReasonCode.of("OWNER_LOST"), RecoveryResolution.ABANDONED, restarted.version(), now())));
        OperationId restart = OperationId.of("restart-" + restarted.id());
        tx(() -> repository.appendOperatorRequest(new OperatorRecordDraft(OperatorAction.RESTART, restart,
                ActorRef.of("ops"), OperatorTarget.execution(instance.id(), restarted.id()),
                RequestDigest.sha256("restart|" + failed.id()), "RESTARTED", now())));
        OperationId purge = OperationId.of("purge-" + instance.id());

        PurgeCounts counts = tx(() -> {
            PurgeCounts applied = repository.applyPurge(survey(job).plan());
            repository.appendRetentionAction(new RetentionRecordDraft(RetentionAction.PURGE, purge,
                    ActorRef.of("system:retention"), Optional.empty(), RequestDigest.sha256("purge|" + job),
                    "PURGED " + applied.jobInstances(), now()));
            return applied;
        });

        assertEquals(1, counts.jobInstances());
        assertTrue(tx(() -> repository.getJobExecution(restarted.id())).isEmpty());
        assertEquals(RecoveryResolution.ABANDONED, tx(() -> repository.recoveryDecision(restarted.id())).orElseThrow()
                .resolution());
        assertEquals(restarted.id(), tx(() -> repository.findOperatorRequest(OperatorAction.RESTART, restart))
                .orElseThrow().target().jobExecutionId().orElseThrow());
        assertEquals("PURGED 1", tx(() -> repository.findRetentionAction(RetentionAction.PURGE, purge)).orElseThrow()
                .outcome());
    }

    @Test
    void aHoldPlacedAfterTheSurveyMakesThePlanStaleAndDeletesNothing() {
        JobName job = freshJob("purge-stale");
        List<JobInstanceId> batch = instances(job, 4);
        PurgePlan plan = survey(job).plan();
        tx(() -> repository.placeInstanceHold(batch.get(2), ActorRef.of("legal"), ReasonCode.of("LITIGATION"), now()));

        assertStaleAndUnchanged(plan, batch, "is held");
    }

    @Test
    void aNewExecutionAfterTheSurveyMakesThePlanStaleAndDeletesNothing() {
        JobName job = freshJob("purge-stale");
        List<JobInstanceId> batch = new ArrayList<>(instances(job, 2));
        JobInstance failed = instance(repository, job, 1, ExecutionStatus.FAILED);
        batch.add(failed.id());
        PurgePlan plan = survey(job).plan();
        tx(() -> repository.createJobExecution(failed.id()));

        assertStaleAndUnchanged(plan, batch, "job instance " + failed.id());
    }

    @Test
    void aMovedVersionAfterTheSurveyMakesThePlanStaleAndDeletesNothing() {
        JobName job = freshJob("purge-stale");
        JobInstance failed = instance(repository, job, 1, ExecutionStatus.FAILED);
        JobInstance completed = instance(repository, job, 1, ExecutionStatus.COMPLETED);
        PurgePlan plan = survey(job).plan();
        JobExecution execution = tx(() -> repository.latestJobExecution(completed.id())).orElseThrow();
        tx(() -> repository.enrichJobExitStatus(execution.id(), execution.version(), ExitStatus.of("ARCHIVED")));

        assertStaleAndUnchanged(plan, List.of(failed.id(), completed.id()), "job instance " + completed.id());
    }

    @Test
    void anAbandonedRestartAfterTheSurveyMakesThePlanStale() {
        JobName job = freshJob("purge-stale");
        JobInstance failed = instance(repository, job, 1, ExecutionStatus.FAILED);
        PurgePlan plan = survey(job).plan();
        JobExecution execution = tx(() -> repository.latestJobExecution(failed.id())).orElseThrow();
        tx(() -> repository.transitionJobExecution(execution.id(), execution.version(),
                LifecycleTransition.to(ExecutionStatus.ABANDONED, now())));

        assertStaleAndUnchanged(plan, List.of(failed.id()), "job instance " + failed.id());
    }

    @Test
    void aPlanAlreadyAppliedIsStale() {
        JobName job = freshJob("purge-stale");
        List<JobInstanceId> batch = instances(job, 2);
        PurgePlan plan = survey(job).plan();
        tx(() -> repository.applyPurge(plan));

        assertRefused(RepositoryError.RETENTION_PLAN_STALE, () -> repository.applyPurge(plan));

        assertEquals(0, storedRows(dataSource, batch).get("job_instance"));
    }

    @Test
    void aHandMadePlanCannotPurgeARunningInstance() {
        JobName job = freshJob("purge-forged");
        JobInstance running = instance(repository, job, 1, ExecutionStatus.STARTED);
        JobExecution execution = tx(() -> repository.latestJobExecution(running.id())).orElseThrow();
        // what a survey would have observed, had it listed the instance
        PurgePlan handMade = new PurgePlan(List.of(new PurgeCandidate(running.id(), job, 1,
                ExecutionVersion.of(execution.version().value() + 1), Optional.of(ExecutionStatus.STARTED),
                Optional.empty())));

        assertStaleAndUnchanged(handMade, List.of(running.id()), "active or UNKNOWN");
    }

    private void assertStaleAndUnchanged(PurgePlan plan, List<JobInstanceId> batch, String reason) {
        List<Map<String, Object>> before = everyRow(dataSource, batch);

        RepositoryException refusal = assertRefused(RepositoryError.RETENTION_PLAN_STALE, () -> repository.applyPurge(plan));

        assertTrue(refusal.getMessage().contains(reason), refusal::getMessage);
        assertEquals(before, everyRow(dataSource, batch));
    }

    private long statementsOf(PurgePlan plan) {
        return QuarkusTransaction.requiringNew().call(() -> {
            long statements = sql.statementsExecuted();
            PurgeCounts counts = repository.applyPurge(plan);
            assertEquals(plan.candidates().size(), counts.jobInstances());
            return sql.statementsExecuted() - statements;
        });
    }

    private List<JobInstanceId> instances(JobName job, int count) {
        List<JobInstanceId> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(instance(repository, job, 3, ExecutionStatus.FAILED, ExecutionStatus.COMPLETED).id());
        }
        return ids;
    }

    private PurgeSurvey survey(JobName job) {
        return tx(() -> repository.purgeSurvey(PurgePlanRequest.before(now().plus(Duration.ofMinutes(1)), 100)
                .forJob(job)));
    }
}
