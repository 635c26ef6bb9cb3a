package io.durablebatch.deployment.test.values;

import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.txRun;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
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
import io.durablebatch.repository.partition.StepPartitionId;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/** Every argument of every repository method is checked: a null is refused naming the parameter. */
class NullArgumentsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    /** "method(Type, Type)#position" for every parameter of every method of the interface that can be null. */
    static Stream<String> everyParameter() {
        return Arrays.stream(KernelRepository.class.getMethods()).flatMap(method -> IntStream
                .range(0, method.getParameterCount())
                .filter(position -> !method.getParameterTypes()[position].isPrimitive())
                .mapToObj(position -> signature(method) + "#" + position))
                .sorted();
    }

    @ParameterizedTest
    @MethodSource("everyParameter")
    void aNullArgumentIsRefusedNamingTheParameter(String parameter) throws Exception {
        String signature = parameter.substring(0, parameter.indexOf('#'));
        int position = Integer.parseInt(parameter.substring(parameter.indexOf('#') + 1));
        Method method = Arrays.stream(KernelRepository.class.getMethods()).filter(m -> signature(m).equals(signature))
                .findFirst().orElseThrow();
        Parameter nulled = method.getParameters()[position];
        assertTrue(nulled.isNamePresent(), "the API is compiled with parameter names");
        Object[] arguments = Arrays.stream(method.getParameterTypes()).map(NullArgumentsTest::sample).toArray();
        arguments[position] = null;

        IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class, () -> txRun(() -> {
            try {
                method.invoke(repository, arguments);
            } catch (InvocationTargetException e) {
                throw (RuntimeException) e.getCause();
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }));
        assertEquals(nulled.getName() + " must not be null", refusal.getMessage());
    }

    @Test
    void aNullPlanEntryIsRefusedNamingItsPosition() {
        List<PartitionPlanEntry> entries = Arrays.asList(PartitionPlanEntry.of("a", new byte[0]), null);

        IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class, () -> txRun(
                () -> repository.createStepPartitionPlan(StepExecutionId.of(Long.MAX_VALUE), entries)));

        assertEquals("entries[1] must not be null", refusal.getMessage());
    }

    @Test
    void aNullExecutionIdIsRefused() {
        List<JobExecutionId> ids = Arrays.asList(JobExecutionId.of(Long.MAX_VALUE), null);

        IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class,
                () -> txRun(() -> repository.stepExecutions(ids)));

        assertEquals("jobExecutionIds[] must not be null", refusal.getMessage());
    }

    private static Object sample(Class<?> type) {
        JobName job = JobName.of("null-arguments");
        PlanFingerprint plan = PlanFingerprint.of(new byte[32]);
        DefinitionIdentity a = new DefinitionIdentity(job, "a", plan);
        DefinitionIdentity b = new DefinitionIdentity(job, "b", plan);
        JobInstanceId instance = JobInstanceId.of(Long.MAX_VALUE);
        JobExecutionId execution = JobExecutionId.of(Long.MAX_VALUE);
        OperationId operation = OperationId.of("op");
        ActorRef actor = ActorRef.of("actor");
        Map<Class<?>, Object> samples = Map.ofEntries(
                // the core
                Map.entry(JobName.class, job),
                Map.entry(DefinitionUpgrade.class, new DefinitionUpgrade(a, b)),
                Map.entry(DefinitionIdentity.class, a),
                Map.entry(JobInstanceKey.class, JobInstanceKey.of(job)),
                Map.entry(JobInstanceId.class, instance),
                Map.entry(JobExecutionId.class, execution),
                Map.entry(JobExecutionRequest.class, JobExecutionRequest.of(instance).definedBy(a)),
                Map.entry(StepExecutionId.class, StepExecutionId.of(Long.MAX_VALUE)),
                Map.entry(StepName.class, StepName.of("step")),
                Map.entry(ExecutionVersion.class, ExecutionVersion.INITIAL),
                Map.entry(ExitStatus.class, ExitStatus.of("X")),
                Map.entry(LifecycleTransition.class, LifecycleTransition.to(ExecutionStatus.STARTED, Instant.EPOCH)),
                Map.entry(RecoveryRequest.class, new RecoveryRequest(operation, actor, ReasonCode.of("R"),
                        RecoveryResolution.FAILED, ExecutionVersion.INITIAL, Instant.EPOCH)),
                Map.entry(Instant.class, Instant.EPOCH),
                Map.entry(ExecutionParameters.class, ExecutionParameters.NONE),
                Map.entry(Optional.class, Optional.empty()),
                Map.entry(StepCounters.class, StepCounters.ZERO),
                // flows
                Map.entry(NodeId.class, NodeId.of("node")),
                Map.entry(StartLimit.class, StartLimit.of(1)),
                Map.entry(PlanFingerprint.class, plan),
                Map.entry(InputDigest.class, InputDigest.of(new byte[32])),
                Map.entry(FlowTransitionKind.class, FlowTransitionKind.NEXT),
                Map.entry(FlowDecisionRequest.class, new FlowDecisionRequest(execution, NodeId.of("from"),
                        Optional.of(NodeId.of("to")), FlowTransitionKind.NEXT, plan, InputDigest.of(new byte[32]),
                        ExitStatus.of("X"), Instant.EPOCH)),
                // partitions: the one list parameter is a plan's entries; a collection is of job names (the
                // other one, of execution ids, is the only parameter of its method: never a sample)
                Map.entry(List.class, List.of(PartitionPlanEntry.of("key", new byte[0]))),
                Map.entry(Collection.class, List.of(job)),
                Map.entry(int.class, 1),
                Map.entry(StepPartitionId.class, StepPartitionId.of(Long.MAX_VALUE)),
                // operator control
                Map.entry(OperatorAction.class, OperatorAction.STOP),
                Map.entry(OperationId.class, operation),
                Map.entry(ActorRef.class, actor),
                Map.entry(OwnerToken.class, OwnerToken.of("owner")),
                Map.entry(OperatorRecordDraft.class, new OperatorRecordDraft(OperatorAction.STOP, operation, actor,
                        OperatorTarget.execution(instance, execution), RequestDigest.sha256("stop"), "STOPPED",
                        Instant.EPOCH)),
                // retention
                Map.entry(ReasonCode.class, ReasonCode.of("R")),
                Map.entry(RetentionAction.class, RetentionAction.PURGE),
                Map.entry(RetentionRecordDraft.class, new RetentionRecordDraft(RetentionAction.PURGE, operation, actor,
                        Optional.empty(), RequestDigest.sha256("purge"), "PURGED 0", Instant.EPOCH)),
                Map.entry(PurgePlanRequest.class, PurgePlanRequest.before(Instant.EPOCH, 1)),
                Map.entry(PurgePlan.class, new PurgePlan(List.of())),
                // listings
                Map.entry(ExecutionQuery.class, ExecutionQuery.all()),
                Map.entry(PageRequest.class, PageRequest.first(1)));
        Object sample = samples.get(type);
        if (sample == null) {
            throw new AssertionError("no sample value of " + type.getName() + ": add one");
        }
        return sample;
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
