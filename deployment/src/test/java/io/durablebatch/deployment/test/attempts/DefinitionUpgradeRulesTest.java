package io.durablebatch.deployment.test.attempts;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.RepositoryTestSupport.txRun;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTING;
import static io.durablebatch.execution.ExecutionStatus.STOPPED;
import static io.durablebatch.repository.RepositoryError.DEFINITION_INCOMPATIBLE;
import static io.durablebatch.repository.RepositoryError.DEFINITION_JOB_MISMATCH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §2 and §4 definitions: a restart runs under the checkpoint's definition or one reachable by
 * exactly one registered edge; edges are directed and do not compose; another job's definition or
 * upgrade is refused.
 */
class DefinitionUpgradeRulesTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Test
    void aFirstAttemptRecordsItsDefinition() {
        JobName job = freshJobName("definitions");
        DefinitionIdentity a = definition(job, "a");
        JobExecution first = attemptUnder(instanceOf(job), a, STARTING);
        assertEquals(Optional.of(a), first.definition());
        assertEquals(first, tx(() -> repository.getJobExecution(first.id())).orElseThrow());
    }

    @Test
    void aRestartUnderTheCheckpointsOwnDefinitionIsAllowed() {
        JobName job = freshJobName("identity");
        DefinitionIdentity a = definition(job, "a");
        JobInstanceId instance = instanceOf(job);
        attemptUnder(instance, a, FAILED);
        assertEquals(Optional.of(a), attemptUnder(instance, a, STARTING).definition());
    }

    @Test
    void aRestartAlongARegisteredEdgeIsAllowed() {
        JobName job = freshJobName("edge");
        DefinitionIdentity a = definition(job, "a");
        DefinitionIdentity b = definition(job, "b");
        register(job, a, b);
        JobInstanceId instance = instanceOf(job);
        attemptUnder(instance, a, STOPPED);
        JobExecution upgraded = attemptUnder(instance, b, STARTING);
        assertEquals(2, upgraded.attempt());
        assertEquals(Optional.of(b), upgraded.definition());
    }

    @Test
    void theReverseOfARegisteredEdgeIsRefused() {
        JobName job = freshJobName("reverse");
        DefinitionIdentity a = definition(job, "a");
        DefinitionIdentity b = definition(job, "b");
        register(job, a, b);
        JobInstanceId instance = instanceOf(job);
        attemptUnder(instance, b, FAILED);
        state.assertRefusedChangingNothing(instance, DEFINITION_INCOMPATIBLE,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance).definedBy(a)));
    }

    @Test
    void edgesDoNotCompose() {
        JobName job = freshJobName("two-hop");
        DefinitionIdentity a = definition(job, "a");
        DefinitionIdentity b = definition(job, "b");
        DefinitionIdentity c = definition(job, "c");
        register(job, a, b);
        register(job, b, c);
        JobInstanceId instance = instanceOf(job);
        attemptUnder(instance, a, FAILED);
        state.assertRefusedChangingNothing(instance, DEFINITION_INCOMPATIBLE,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance).definedBy(c)));

        // One hop at a time is allowed: A -> B, then B -> C.
        attemptUnder(instance, b, FAILED);
        assertEquals(Optional.of(c), attemptUnder(instance, c, STARTING).definition());
    }

    @Test
    void anEdgeNamesTheExactFingerprint() {
        JobName job = freshJobName("fingerprint");
        DefinitionIdentity a = definition(job, "a");
        DefinitionIdentity b = definition(job, "b");
        DefinitionIdentity sameLabelOtherPlan = new DefinitionIdentity(job, b.revision(), fingerprint("other plan"));
        DefinitionIdentity unrelated = definition(job, "z");
        register(job, a, b);
        JobInstanceId instance = instanceOf(job);
        attemptUnder(instance, a, FAILED);
        state.assertRefusedChangingNothing(instance, DEFINITION_INCOMPATIBLE,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance).definedBy(sameLabelOtherPlan)));
        state.assertRefusedChangingNothing(instance, DEFINITION_INCOMPATIBLE,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance).definedBy(unrelated)));
    }

    @Test
    void theCheckpointsDefinitionIsTheLatestOneRecorded() {
        JobName job = freshJobName("latest-definition");
        DefinitionIdentity a = definition(job, "a");
        DefinitionIdentity b = definition(job, "b");
        register(job, a, b);
        JobInstanceId instance = instanceOf(job);
        attemptUnder(instance, a, FAILED);
        given.attemptIn(instance, FAILED); // an attempt launched without a definition changes nothing
        assertEquals(Optional.of(b), attemptUnder(instance, b, STARTING).definition());
    }

    @Test
    void aDefinitionOfAnotherJobIsRefused() {
        JobName job = freshJobName("own-job");
        DefinitionIdentity foreign = definition(freshJobName("foreign-job"), "a");
        JobInstanceId instance = instanceOf(job);
        state.assertRefusedChangingNothing(instance, DEFINITION_JOB_MISMATCH,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance).definedBy(foreign)));

        attemptUnder(instance, definition(job, "a"), FAILED);
        state.assertRefusedChangingNothing(instance, DEFINITION_JOB_MISMATCH,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance).definedBy(foreign)));
    }

    @Test
    void anUpgradeRegisteredForAnotherJobIsRefused() {
        JobName job = freshJobName("upgrade-owner");
        JobName other = freshJobName("upgrade-other");
        DefinitionIdentity a = definition(other, "a");
        DefinitionIdentity b = definition(other, "b");
        JobInstanceId instance = instanceOf(other);
        state.assertRefusedChangingNothing(instance, DEFINITION_JOB_MISMATCH,
                () -> repository.registerDefinitionUpgrade(job, new DefinitionUpgrade(a, b)));

        attemptUnder(instance, a, FAILED);
        state.assertRefusedChangingNothing(instance, DEFINITION_INCOMPATIBLE,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance).definedBy(b)));
    }

    @Test
    void registeringAnEdgeTwiceIsHarmless() {
        JobName job = freshJobName("twice");
        DefinitionIdentity a = definition(job, "a");
        DefinitionIdentity b = definition(job, "b");
        JobInstanceId instance = instanceOf(job);
        register(job, a, b);
        List<String> registered = state.of(instance);
        register(job, a, b);
        txRun(() -> {
            repository.registerDefinitionUpgrade(job, new DefinitionUpgrade(a, b));
            repository.registerDefinitionUpgrade(job, new DefinitionUpgrade(a, b));
        });
        assertEquals(registered, state.of(instance), "the edge is stored once");

        attemptUnder(instance, a, FAILED);
        assertEquals(Optional.of(b), attemptUnder(instance, b, STARTING).definition());
    }

    @Test
    void anUpgradeMustLeadToAnotherDefinitionOfTheSameJob() {
        JobName job = freshJobName("record");
        DefinitionIdentity a = definition(job, "a");
        IllegalArgumentException same = assertThrows(IllegalArgumentException.class, () -> new DefinitionUpgrade(a, a));
        assertTrue(same.getMessage().startsWith("upgrade.to"), same::getMessage);
        IllegalArgumentException otherJob = assertThrows(IllegalArgumentException.class,
                () -> new DefinitionUpgrade(a, definition(freshJobName("record-other"), "b")));
        assertTrue(otherJob.getMessage().startsWith("upgrade.to"), otherJob::getMessage);
    }

    private JobInstanceId instanceOf(JobName job) {
        return tx(() -> repository.selectOrCreateJobInstance(JobInstanceKey.of(job, Map.of("day", 1L)))).instance().id();
    }

    private JobExecution attemptUnder(JobInstanceId instance, DefinitionIdentity definition, ExecutionStatus status) {
        return tx(() -> given.drive(repository.createJobExecution(JobExecutionRequest.of(instance).definedBy(definition)),
                status));
    }

    private void register(JobName job, DefinitionIdentity from, DefinitionIdentity to) {
        txRun(() -> repository.registerDefinitionUpgrade(job, new DefinitionUpgrade(from, to)));
    }

    private static DefinitionIdentity definition(JobName job, String revision) {
        return new DefinitionIdentity(job, revision, fingerprint(job + "/" + revision));
    }

    private static PlanFingerprint fingerprint(String plan) {
        try {
            return PlanFingerprint.of(MessageDigest.getInstance("SHA-256").digest(plan.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
