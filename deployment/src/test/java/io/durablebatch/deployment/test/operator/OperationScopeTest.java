package io.durablebatch.deployment.test.operator;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.FailingJob;
import io.durablebatch.deployment.test.OperatorTest;
import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionRecord;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An idempotency key (operation id) is its caller's own (issue 26): another actor sending the same
 * key is another operation, decided on its own and audited under its own name, never answered from
 * the first one's record; and the same actor's key sent twice at the same moment is applied once,
 * the second request waiting for the first and answered from its record, not refused by its effect.
 */
class OperationScopeTest extends OperatorTest {

    private static final String JOB = FailingJob.NAME;
    private static final int RACERS = 8;

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(OperatorTest.class, FailingJob.class);

    @Test
    void anotherActorsSameKeyIsAnotherOperation() {
        String key = "shared-" + UUID.randomUUID();
        JobParameters parameters = JobParameters.of("run", UUID.randomUUID().toString());

        // start: bob's request under alice's key is bob's own start (a restart of the failed instance)
        JobExecution alices = awaitEnd(operator.start(JOB, parameters, OperatorCall.of(key, "alice")));
        JobExecution bobs = awaitEnd(operator.start(JOB, parameters, OperatorCall.of(key, "bob")));
        assertNotEquals(alices.id(), bobs.id(), "bob got his own attempt, not alice's answer");
        assertEquals(2, bobs.attempt());
        assertEquals(alices.id(), operator.start(JOB, parameters, OperatorCall.of(key, "alice")), "alice's retry");
        assertRecorded(OperatorAction.START, "alice", key, alices.id());
        assertRecorded(OperatorAction.START, "bob", key, bobs.id());

        // restart: bob's restart of the attempt alice restarted is decided on its own: superseded
        JobExecution restarted = awaitEnd(operator.restart(bobs.id(), OperatorCall.of(key, "alice")));
        RepositoryException refused = assertThrows(RepositoryException.class,
                () -> operator.restart(bobs.id(), OperatorCall.of(key, "bob")));
        assertEquals(RepositoryError.EXECUTION_SUPERSEDED, refused.error(), refused::getMessage);
        assertEquals(restarted.id(), operator.restart(bobs.id(), OperatorCall.of(key, "alice")), "alice's retry");

        // abandon: bob's abandon of what alice abandoned is refused, and recorded only for alice
        assertEquals(ExecutionStatus.ABANDONED, operator.abandon(restarted.id(), OperatorCall.of(key, "alice"))
                .status());
        List<String> before = stored.of(restarted.jobInstanceId());
        refused = assertThrows(RepositoryException.class,
                () -> operator.abandon(restarted.id(), OperatorCall.of(key, "bob")));
        assertEquals(RepositoryError.ILLEGAL_TRANSITION, refused.error(), refused::getMessage);
        assertEquals(before, stored.of(restarted.jobInstanceId()), "bob's refused abandon changed nothing");
        assertRecorded(OperatorAction.ABANDON, "alice", key, restarted.id());
        assertTrue(tx(() -> repository.findOperatorRequest(OperatorAction.ABANDON, ActorRef.of("bob"),
                OperationId.of(key))).isEmpty(), "no record of bob's refused abandon");

        // retention: the same key from another actor is another record
        JobInstance instance = tx(() -> repository.getJobInstance(alices.jobInstanceId())).orElseThrow();
        RetentionRecord alicesHold = appendHold(instance, "alice", key);
        RetentionRecord bobsHold = appendHold(instance, "bob", key);
        assertEquals("alice", alicesHold.actor().value());
        assertEquals("bob", bobsHold.actor().value());
        assertEquals(bobsHold, tx(() -> repository.findRetentionAction(RetentionAction.PLACE_HOLD, ActorRef.of("bob"),
                OperationId.of(key))).orElseThrow());
    }

    @Test
    void theSameKeySentAtOnceIsAppliedOnceAndAnsweredToEveryone() {
        for (int round = 0; round < 3; round++) {
            // start: every racer gets the one attempt
            String startKey = "start-" + UUID.randomUUID();
            JobParameters parameters = JobParameters.of("run", UUID.randomUUID().toString());
            List<JobExecutionId> started = answers(Race.run(RACERS,
                    racer -> operator.start(JOB, parameters, OperatorCall.of(startKey, "alice"))));
            JobExecution first = awaitEnd(started.get(0));
            assertEquals(1, tx(() -> repository.jobExecutions(first.jobInstanceId())).size(), "one attempt");

            // restart: every racer gets the one restart
            String restartKey = "restart-" + UUID.randomUUID();
            List<JobExecutionId> restarted = answers(Race.run(RACERS,
                    racer -> operator.restart(first.id(), OperatorCall.of(restartKey, "alice"))));
            JobExecution second = awaitEnd(restarted.get(0));
            assertEquals(2, tx(() -> repository.jobExecutions(first.jobInstanceId())).size(), "one restart");

            // abandon: every racer gets the abandoned attempt
            String abandonKey = "abandon-" + UUID.randomUUID();
            List<ExecutionStatus> abandoned = answers(Race.run(RACERS,
                    racer -> operator.abandon(second.id(), OperatorCall.of(abandonKey, "alice")).status()));
            assertEquals(ExecutionStatus.ABANDONED, abandoned.get(0));

            // retention: the same hold request at once is placed and recorded once
            JobInstance instance = tx(() -> repository.getJobInstance(first.jobInstanceId())).orElseThrow();
            String holdKey = "hold-" + UUID.randomUUID();
            List<RetentionRecord> held = answers(Race.run(RACERS, racer -> auditedHold(instance, "alice", holdKey)));
            assertEquals("alice", held.get(0).actor().value());
            assertEquals(1, stored.number("SELECT count(*) FROM {p}retention_action WHERE operation_id = ?", holdKey));
        }
    }

    /** Every racer succeeded with the same answer; returns them. */
    private static <T> List<T> answers(List<Race.Outcome<T>> outcomes) {
        Set<String> codes = outcomes.stream().map(Race.Outcome::code).collect(Collectors.toSet());
        assertEquals(Set.of("ok"), codes, "every racer is answered: " + outcomes.stream()
                .filter(outcome -> !outcome.succeeded()).map(outcome -> outcome.failure().toString()).toList());
        List<T> answers = outcomes.stream().map(Race.Outcome::result).toList();
        assertEquals(1, Set.copyOf(answers).size(), "one answer: " + answers);
        return answers;
    }

    /** A hold placed as the REST API places it: its record first, else the hold and its record, in one transaction. */
    private RetentionRecord auditedHold(JobInstance instance, String actor, String key) {
        RequestDigest digest = RequestDigest.sha256("hold|instance=" + instance.id() + "|reason=RACE");
        return tx(() -> repository.findRetentionAction(RetentionAction.PLACE_HOLD, ActorRef.of(actor),
                OperationId.of(key)).orElseGet(() -> {
                    repository.placeInstanceHold(instance.id(), ActorRef.of(actor), ReasonCode.of("RACE"), Instant.now());
                    return repository.appendRetentionAction(new RetentionRecordDraft(RetentionAction.PLACE_HOLD,
                            OperationId.of(key), ActorRef.of(actor), Optional.of(instance.id()), digest, "HELD",
                            Instant.now()));
                }));
    }

    private RetentionRecord appendHold(JobInstance instance, String actor, String key) {
        return tx(() -> repository.appendRetentionAction(new RetentionRecordDraft(RetentionAction.PLACE_HOLD,
                OperationId.of(key), ActorRef.of(actor), Optional.of(instance.id()),
                RequestDigest.sha256("hold|" + instance.id() + "|" + actor), "HELD", Instant.now())));
    }

    private void assertRecorded(OperatorAction action, String actor, String key, JobExecutionId target) {
        OperatorRecord record = tx(() -> repository.findOperatorRequest(action, ActorRef.of(actor), OperationId.of(key)))
                .orElseThrow();
        assertEquals(actor, record.actor().value());
        assertEquals(Optional.of(target), record.target().jobExecutionId());
    }

    private JobExecution awaitEnd(JobExecutionId id) {
        return operator.await(id, Duration.ofSeconds(30));
    }
}
