package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.dropTablesWithPrefix;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.RepositorySchema;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.control.ExecutionControl;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecordDraft;
import io.durablebatch.repository.control.OperatorTarget;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.flow.FlowDecisionRequest;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.InputDigest;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.partition.PartitionLeaseStore;
import io.durablebatch.runtime.schedule.ScheduleStore;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §10: the extension creates and uses all its tables, its history and its indexes and
 * constraints under the configured prefix, and every capability's SQL names them with it.
 */
class CustomTablePrefixTest {

    private static final String PREFIX = "custom_";

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.schema.table-prefix", PREFIX)
            // No leftovers of an earlier run: the tables below must be created by this start.
            .setBeforeAllCustomizer(() -> dropTablesWithPrefix(PREFIX));

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Inject
    PartitionLeaseStore partitionLeases;

    @Inject
    ScheduleStore schedules;

    @Test
    void everyTableIsCreatedUnderThePrefix() {
        assertEquals(RepositorySchema.tableNames(PREFIX), new TreeSet<>(strings("SELECT table_name "
                + "FROM information_schema.tables WHERE table_schema = current_schema() AND starts_with(table_name, ?)",
                PREFIX)));
        // a migration that forgot the prefix would have created the bare name
        List<String> bare = RepositorySchema.TABLES.stream().map(RepositorySchema.Table::name).toList();
        assertEquals(List.of(), strings("SELECT table_name FROM information_schema.tables "
                + "WHERE table_schema = current_schema() AND table_name = ANY (?::text[])",
                (Object) bare.toArray(String[]::new)));
    }

    @Test
    void everyIndexAndConstraintIsNamedUnderThePrefix() {
        List<String> indexes = strings("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() "
                + "AND starts_with(tablename, ?)", PREFIX);
        assertTrue(indexes.size() >= 25, indexes::toString);
        assertTrue(indexes.stream().allMatch(index -> index.startsWith(PREFIX)), indexes::toString);
        List<String> constraints = strings("SELECT conname FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid "
                + "WHERE t.relnamespace = current_schema()::regnamespace AND starts_with(t.relname, ?)", PREFIX);
        assertTrue(constraints.size() >= 25, constraints::toString);
        assertTrue(constraints.stream().allMatch(constraint -> constraint.startsWith(PREFIX)), constraints::toString);
    }

    @Test
    void theHistoryRecordsEveryMigrationUpToTheExpectedVersion() {
        List<String> shipped = SchemaMigrations.SCRIPTS.stream().map(script -> script.substring(1, script.indexOf("__")))
                .toList();
        List<String> applied = strings("SELECT version FROM custom_schema_history WHERE success AND version IS NOT NULL "
                + "AND version <> ? ORDER BY installed_rank", "0");

        assertEquals(shipped, applied);
        assertEquals(SchemaMigrations.expectedVersion(), applied.get(applied.size() - 1));
    }

    @Test
    void theRepositoryWorksOnThePrefixedTables() {
        JobInstance instance = tx(() -> repository.selectOrCreateJobInstance(freshKey("prefixed"))).instance();
        JobExecution execution = tx(() -> repository.createJobExecution(JobExecutionRequest.of(instance.id())));
        StepExecution step = tx(() -> repository.createStepExecution(execution.id(), StepName.of("only")));
        tx(() -> repository.transitionJobExecution(execution.id(), execution.version(),
                LifecycleTransition.to(ExecutionStatus.FAILED, now())));

        assertEquals(List.of(instance.jobName().value()),
                strings("SELECT job_name FROM custom_job_instance WHERE id = " + instance.id().value()));
        assertEquals(List.of("FAILED"),
                strings("SELECT status FROM custom_job_execution WHERE id = " + execution.id().value()));
        assertEquals(List.of("only"),
                strings("SELECT step_name FROM custom_step_execution WHERE id = " + step.id().value()));
    }

    @Test
    void everyCapabilityWritesItsPrefixedTables() {
        JobName job = freshJobName("prefixed-capabilities");
        OwnerToken owner = OwnerToken.of("node-a/boot-1");
        ActorRef operator = ActorRef.of("operator");
        PlanFingerprint plan = PlanFingerprint.of(new byte[32]);
        JobInstanceId instance = given.instanceWithHistory(job, 0).id();
        JobExecution execution = tx(() -> {
            JobExecution starting = repository.createJobExecution(JobExecutionRequest.of(instance));
            return repository.claimExecutionOwner(starting.id(), starting.version(), owner, now());
        });
        JobExecution running = given.move(execution, ExecutionStatus.STARTED);
        // flows
        tx(() -> repository.appendFlowDecision(new FlowDecisionRequest(running.id(), NodeId.of("check"),
                Optional.of(NodeId.of("load")), FlowTransitionKind.NEXT, plan, InputDigest.of(new byte[32]),
                ExitStatus.of("COMPLETED"), now())));
        tx(() -> repository.createFlowStepExecution(running.id(), StepName.of("load"), NodeId.of("load"),
                StartLimit.of(2)));
        // partitions
        StepExecution parent = given.stepIn(running.id(), "partitioned", ExecutionStatus.STARTED);
        tx(() -> repository.createStepPartitionPlan(parent.id(), List.of(PartitionPlanEntry.of("a", new byte[0]))));
        StepExecution worker = given.stepIn(running.id(), "worker", ExecutionStatus.STARTING);
        StepPartition taken = tx(() -> repository.claimNextStepPartition(parent.id(), worker.id())).orElseThrow();
        // leases: a worker whose process leaves hands its partition back, audited
        given.endStep(worker, ExecutionStatus.STOPPED, "STOPPED", StepCounters.ZERO);
        assertTrue(tx(() -> partitionLeases.handBack(taken.id(), worker.id(), now())));
        // operator control, then recovery as if the owner had died while stopping
        tx(() -> {
            repository.requestExecutionStop(running.id(), running.version(), operator, now());
            return repository.appendOperatorRequest(new OperatorRecordDraft(OperatorAction.STOP, OperationId.of("stop-"
                    + running.id()), operator, OperatorTarget.execution(instance, running.id()),
                    RequestDigest.sha256("stop"), "STOP_REQUESTED", now()));
        });
        ExecutionControl stopping = tx(() -> repository.observeExecutionControl(running.id(), owner, now()));
        assertEquals(ExecutionStatus.STOPPING, stopping.status());
        tx(() -> repository.recoverJobExecution(running.id(), new RecoveryRequest(OperationId.of("recover-"
                + running.id()), operator, ReasonCode.of("OWNER_LOST"), RecoveryResolution.FAILED, stopping.version(),
                now(), true)));
        // definitions and retention
        DefinitionIdentity a = new DefinitionIdentity(job, "a", plan);
        tx(() -> {
            repository.registerDefinitionUpgrade(job, new DefinitionUpgrade(a, new DefinitionIdentity(job, "b", plan)));
            repository.placeInstanceHold(instance, operator, ReasonCode.of("AUDIT"), now());
            return repository.appendRetentionAction(new RetentionRecordDraft(RetentionAction.PLACE_HOLD,
                    OperationId.of("hold-" + instance), operator, Optional.of(instance), RequestDigest.sha256("hold"),
                    "PLACED", now()));
        });
        // schedules: a schedule's row and a pause recorded in its audit
        tx(() -> {
            schedules.register(job.value(), now());
            schedules.setPaused(job.value(), Optional.of(operator), now());
            return schedules.append(job.value(), "PAUSE", OperationId.of("pause-" + instance), operator,
                    Optional.empty(), "paused", now());
        });

        Map<String, Long> rows = new TreeMap<>();
        RepositorySchema.TABLES.forEach(table -> rows.put(table.name(),
                state.number("SELECT count(*) FROM {p}" + table.name())));
        assertTrue(rows.values().stream().allMatch(count -> count > 0), () -> "every table has a row: " + rows);

        // and a purge deletes the instance from every prefixed table it owns, keeping the audits
        tx(() -> repository.releaseInstanceHold(instance));
        tx(() -> repository.applyPurge(repository.purgeSurvey(PurgePlanRequest.before(now().plus(Duration.ofMinutes(1)),
                10).forJob(job)).plan()));
        assertEquals(Map.of("operator_request", 1L, "recovery_decision", 1L, "retention_action", 1L),
                state.rowCounts(List.of(instance)));
    }

    private List<String> strings(String sql, Object... parameters) {
        return state.rows(sql, parameters).stream().map(row -> String.valueOf(row.values().iterator().next())).toList();
    }
}
