package io.durablebatch.deployment.test.finders;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.control.OperatorRecordDraft;
import io.durablebatch.repository.control.OperatorTarget;
import io.durablebatch.repository.flow.FlowDecision;
import io.durablebatch.repository.flow.FlowDecisionRequest;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.InputDigest;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The rows every launch writes and reads besides its execution rows (issue 29): the instance's
 * select-or-create and lookups, the route decision's append, the operator audit's record and its
 * lookup run as plain JDBC mapped by hand. Each must give the value the entity mapping (or
 * Hibernate's mapping of the same native statement) gives for the same row, every column set and,
 * where a column may be null, unset.
 */
class LaunchRowsReadTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Test
    void anInstanceReadsAsItsEntityDoes() {
        JobInstanceKey key = freshKey("launch-rows-instance");
        JobInstanceSelection created = tx(() -> repository.selectOrCreateJobInstance(key));
        JobInstanceSelection selected = tx(() -> repository.selectOrCreateJobInstance(key));
        assertTrue(created.created());
        assertFalse(selected.created());

        JobInstance byEntity = tx(() -> repository.findJobInstances(key.jobName(), PageRequest.first(5))).items().get(0);
        assertEquals(byEntity, created.instance(), "as inserted");
        assertEquals(byEntity, selected.instance(), "as locked by digest");
        assertEquals(Optional.of(byEntity), tx(() -> repository.findJobInstance(key)), "by key");
        assertEquals(Optional.of(byEntity), tx(() -> repository.getJobInstance(byEntity.id())), "by id");
        assertEquals(Optional.empty(), tx(() -> repository.getJobInstance(new JobInstanceId(Long.MAX_VALUE))), "none");
    }

    @Test
    void aRouteDecisionReadsAsItsEntityDoes() {
        JobInstance instance = tx(() -> repository.selectOrCreateJobInstance(freshKey("launch-rows-decision")))
                .instance();
        JobExecution created = tx(() -> repository.createJobExecution(JobExecutionRequest.of(instance.id())));
        JobExecution started = tx(() -> repository.transitionJobExecution(created.id(), created.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, now())));
        PlanFingerprint plan = PlanFingerprint.of(sha("plan"));
        FlowDecision routed = tx(() -> repository.appendFlowDecision(new FlowDecisionRequest(started.id(),
                NodeId.of("check"), Optional.of(NodeId.of("load")), FlowTransitionKind.DECISION, plan,
                InputDigest.of(sha("rows=17")), new ExitStatus("REPAIR", "seventeen rows to repair"), now())));
        // an end: no target node
        FlowDecision ended = tx(() -> repository.appendFlowDecision(new FlowDecisionRequest(started.id(),
                NodeId.of("load"), Optional.empty(), FlowTransitionKind.END, plan, InputDigest.of(sha("done")),
                ExitStatus.of("COMPLETED"), now())));

        assertEquals(List.of(routed, ended), tx(() -> repository.flowDecisions(started.id())));
        assertTrue(routed.toNode().isPresent() && ended.toNode().isEmpty());
    }

    @Test
    void anOperatorRecordReadsAsHibernateMapsIt() {
        JobInstance instance = tx(() -> repository.selectOrCreateJobInstance(freshKey("launch-rows-audit")))
                .instance();
        JobExecution execution = tx(() -> repository.createJobExecution(JobExecutionRequest.of(instance.id())));
        ActorRef actor = ActorRef.of("alice");
        OperatorRecord ofExecution = tx(() -> repository.appendOperatorRequest(new OperatorRecordDraft(
                OperatorAction.START, OperationId.of("rows-" + instance.id() + "-start"), actor,
                OperatorTarget.execution(instance.id(), execution.id()), RequestDigest.sha256("start"),
                "LAUNCHED", now())));
        // of the instance only: no execution
        OperatorRecord ofInstance = tx(() -> repository.appendOperatorRequest(new OperatorRecordDraft(
                OperatorAction.STOP, OperationId.of("rows-" + instance.id() + "-stop"), actor,
                OperatorTarget.instance(instance.id()), RequestDigest.sha256("stop"), "STOP_REQUESTED", now())));

        List<OperatorRecord> byHibernate = tx(() -> repository.findOperatorRecords(Optional.of(instance.id()),
                PageRequest.first(5))).items();
        assertEquals(List.of(ofInstance, ofExecution), byHibernate, "as appended");
        assertEquals(Optional.of(ofExecution), tx(() -> repository.findOperatorRequest(OperatorAction.START, actor,
                ofExecution.operationId())), "as looked up");
        assertEquals(Optional.of(ofInstance), tx(() -> repository.findOperatorRequest(OperatorAction.STOP, actor,
                ofInstance.operationId())), "as looked up, no execution");
        assertTrue(ofExecution.target().jobExecutionId().isPresent() && ofInstance.target().jobExecutionId().isEmpty());
    }

    private static byte[] sha(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
