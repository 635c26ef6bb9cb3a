package io.durablebatch.deployment.test.unitofwork;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.repository.ExecutionStatus.STARTED;
import static io.durablebatch.repository.ExecutionStatus.STOPPING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.inject.Inject;
import jakarta.transaction.TransactionManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.RepositoryState;
import io.durablebatch.repository.ActorRef;
import io.durablebatch.repository.Checkpoint;
import io.durablebatch.repository.DefinitionIdentity;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.ExitStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobInstance;
import io.durablebatch.repository.JobInstanceKey;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.OperationId;
import io.durablebatch.repository.PlanFingerprint;
import io.durablebatch.repository.ReasonCode;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.StepCounters;
import io.durablebatch.repository.StepExecution;
import io.durablebatch.repository.StepName;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §1 unit of work: every method runs only inside an active transaction, a successful call is
 * provisional until commit, a rolled-back unit of work leaves nothing, and a unit of work sees its
 * own writes.
 */
class UnitOfWorkRulesTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    JobRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    RepositoryState state;

    @Inject
    MetadataSql sql;

    @Inject
    TransactionManager transactions;

    /** Every method of the interface, so that a new method without a case below fails this test. */
    static Stream<String> everyRepositoryMethod() {
        return Arrays.stream(JobRepository.class.getMethods()).map(UnitOfWorkRulesTest::signature).sorted();
    }

    @ParameterizedTest
    @MethodSource("everyRepositoryMethod")
    void everyMethodFailsAtOnceOutsideATransaction(String method) {
        JobInstance idle = given.newInstance("idle");
        JobExecution running = given.jobExecutionIn(STARTED);
        StepExecution step = given.stepIn(running.id(), "step", STARTED);
        JobName job = idle.jobName();
        DefinitionIdentity a = new DefinitionIdentity(job, "a", PlanFingerprint.of(new byte[32]));
        DefinitionIdentity b = new DefinitionIdentity(job, "b", PlanFingerprint.of(new byte[32]));
        RecoveryRequest recovery = new RecoveryRequest(OperationId.of("outside-" + running.id()), ActorRef.of("test"),
                ReasonCode.of("OWNER_LOST"), RecoveryResolution.FAILED, running.version(), now());
        // Real rows and current versions: without the guard each call would succeed and write.
        Map<String, Executable> calls = Map.ofEntries(
                Map.entry("registerDefinitionUpgrade(JobName, DefinitionUpgrade)",
                        () -> repository.registerDefinitionUpgrade(job, new DefinitionUpgrade(a, b))),
                Map.entry("selectOrCreateJobInstance(JobInstanceKey)",
                        () -> repository.selectOrCreateJobInstance(freshKey("outside"))),
                Map.entry("createJobExecution(JobInstanceId)", () -> repository.createJobExecution(idle.id())),
                Map.entry("createJobExecution(JobInstanceId, DefinitionIdentity)",
                        () -> repository.createJobExecution(idle.id(), a)),
                Map.entry("createStepExecution(JobExecutionId, StepName)",
                        () -> repository.createStepExecution(running.id(), StepName.of("another"))),
                Map.entry("transitionJobExecution(JobExecutionId, ExecutionVersion, LifecycleTransition)",
                        () -> repository.transitionJobExecution(running.id(), running.version(),
                                LifecycleTransition.to(STOPPING, now()))),
                Map.entry("enrichJobExitStatus(JobExecutionId, ExecutionVersion, ExitStatus)",
                        () -> repository.enrichJobExitStatus(running.id(), running.version(), ExitStatus.of("X"))),
                Map.entry("transitionStepExecution(StepExecutionId, ExecutionVersion, LifecycleTransition)",
                        () -> repository.transitionStepExecution(step.id(), step.version(), LifecycleTransition
                                .progress(now(), Checkpoint.of("p".getBytes(StandardCharsets.UTF_8)), StepCounters.ZERO))),
                Map.entry("recordStepProgress(StepExecutionId, ExecutionVersion, Optional, StepCounters, Instant)",
                        () -> repository.recordStepProgress(step.id(), step.version(),
                                java.util.Optional.of(Checkpoint.of("p".getBytes(StandardCharsets.UTF_8))),
                                StepCounters.ZERO, now())),
                Map.entry("enrichStepExitStatus(StepExecutionId, ExecutionVersion, ExitStatus)",
                        () -> repository.enrichStepExitStatus(step.id(), step.version(), ExitStatus.of("X"))),
                Map.entry("findJobInstance(JobInstanceKey)", () -> repository.findJobInstance(idle.key())),
                Map.entry("getJobInstance(JobInstanceId)", () -> repository.getJobInstance(idle.id())),
                Map.entry("getJobExecution(JobExecutionId)", () -> repository.getJobExecution(running.id())),
                Map.entry("latestJobExecution(JobInstanceId)", () -> repository.latestJobExecution(idle.id())),
                Map.entry("jobExecutions(JobInstanceId)", () -> repository.jobExecutions(idle.id())),
                Map.entry("getStepExecution(StepExecutionId)", () -> repository.getStepExecution(step.id())),
                Map.entry("stepExecutions(JobExecutionId)", () -> repository.stepExecutions(running.id())),
                Map.entry("recoverJobExecution(JobExecutionId, RecoveryRequest)",
                        () -> repository.recoverJobExecution(running.id(), recovery)),
                Map.entry("recoveryDecision(JobExecutionId)", () -> repository.recoveryDecision(running.id())));
        Executable call = calls.get(method);
        assertNotNull(call, "no case for " + method);
        List<String> before = rowsOf(idle, running);

        RepositoryException refusal = assertThrows(RepositoryException.class, call);

        assertEquals(RepositoryError.TRANSACTION_REQUIRED, refusal.error(), refusal::getMessage);
        assertTrue(refusal.getMessage().contains(method.substring(0, method.indexOf('('))), refusal::getMessage);
        assertEquals(before, rowsOf(idle, running));
    }

    @Test
    void aTransactionMarkedForRollbackIsNotAUnitOfWorkToJoin() throws Exception {
        transactions.begin();
        try {
            transactions.setRollbackOnly();
            RepositoryException refusal = assertThrows(RepositoryException.class,
                    () -> repository.selectOrCreateJobInstance(freshKey("doomed")));
            assertEquals(RepositoryError.TRANSACTION_REQUIRED, refusal.error());
        } finally {
            transactions.rollback();
        }
    }

    @Test
    void aRolledBackUnitOfWorkLeavesNothing() throws Exception {
        JobInstance witness = given.newInstance("witness");
        List<String> before = state.rowsOf(witness.id());
        JobInstanceKey key = freshKey("rolled-back");

        transactions.begin();
        JobInstance instance;
        JobExecution execution;
        StepExecution step;
        try {
            instance = repository.selectOrCreateJobInstance(key).instance();
            execution = repository.createJobExecution(instance.id());
            execution = repository.transitionJobExecution(execution.id(), execution.version(),
                    LifecycleTransition.to(STARTED, now()));
            step = repository.createStepExecution(execution.id(), StepName.of("step"));
            repository.transitionStepExecution(step.id(), step.version(), LifecycleTransition.to(STARTED, now()));
            assertEquals(Optional.of(instance), repository.findJobInstance(key), "the unit of work sees its writes");
        } finally {
            transactions.rollback();
        }

        JobExecution created = execution;
        assertEquals(Optional.empty(), tx(() -> repository.findJobInstance(key)));
        assertEquals(Optional.empty(), tx(() -> repository.getJobInstance(instance.id())));
        assertEquals(Optional.empty(), tx(() -> repository.getJobExecution(created.id())));
        assertEquals(Optional.empty(), tx(() -> repository.getStepExecution(step.id())));
        assertEquals(before, state.rowsOf(witness.id()), "no table kept a row");
    }

    @Test
    void aUnitOfWorkThatEndsByAnExceptionRollsBack() {
        JobInstanceKey key = freshKey("thrown");
        assertThrows(IllegalStateException.class, () -> QuarkusTransaction.requiringNew().run(() -> {
            JobInstance instance = repository.selectOrCreateJobInstance(key).instance();
            repository.createJobExecution(instance.id());
            throw new IllegalStateException("the application failed");
        }));
        assertEquals(Optional.empty(), tx(() -> repository.findJobInstance(key)));
    }

    @Test
    void aCallIsProvisionalUntilItsUnitOfWorkCommits() {
        JobInstanceKey key = freshKey("provisional");
        JobInstance created = tx(() -> {
            JobInstance instance = repository.selectOrCreateJobInstance(key).instance();
            // Another unit of work (the outer one is suspended meanwhile) does not see it yet.
            assertEquals(Optional.empty(), tx(() -> repository.findJobInstance(key)));
            return instance;
        });
        assertEquals(Optional.of(created), tx(() -> repository.findJobInstance(key)));
    }

    @Test
    void selectOrCreateTwiceInOneUnitOfWorkReturnsTheSameInstance() {
        JobInstanceKey key = freshKey("same-unit");
        List<JobInstanceSelection> selections = tx(() -> {
            List<JobInstanceSelection> both = new ArrayList<>();
            both.add(assertStatements(sql, 1, () -> repository.selectOrCreateJobInstance(key)));
            // An existing instance costs the insert that found the conflict and the read of the winner.
            both.add(assertStatements(sql, 2, () -> repository.selectOrCreateJobInstance(key)));
            return both;
        });
        assertTrue(selections.get(0).created());
        assertFalse(selections.get(1).created());
        assertEquals(selections.get(0).instance(), selections.get(1).instance());
        assertEquals(Optional.of(selections.get(0).instance()), tx(() -> repository.findJobInstance(key)));
    }

    private List<String> rowsOf(JobInstance idle, JobExecution running) {
        List<String> rows = new ArrayList<>(state.rowsOf(idle.id()));
        rows.addAll(state.rowsOf(running.jobInstanceId()));
        return rows;
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
