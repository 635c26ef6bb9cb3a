package io.durablebatch.deployment.test.attempts;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC §2: non-identifying parameters belong to the execution, never to the instance's identity. */
class ExecutionParametersTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Inject
    MetadataSql sql;

    @Test
    void eachAttemptRecordsItsOwnParametersInOneStatement() {
        JobInstance instance = given.newInstance("parameters");
        ExecutionParameters first = ExecutionParameters.of(Map.of("threads", 4L, "source", "s3://a"));
        JobExecution attempt1 = tx(() -> assertStatements(sql, 1,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance.id()).withParameters(first))));
        tx(() -> given.drive(attempt1, FAILED));
        ExecutionParameters second = ExecutionParameters.of(Map.of("threads", 8L, "limit", new BigDecimal("1.50")));
        JobExecution attempt2 = tx(
                () -> repository.createJobExecution(JobExecutionRequest.of(instance.id()).withParameters(second)));

        assertEquals(first, attempt1.parameters());
        assertEquals(second, attempt2.parameters());
        assertEquals(List.of(first, second), tx(() -> repository.jobExecutions(instance.id())).stream()
                .map(JobExecution::parameters).toList());
        assertEquals(second, tx(() -> repository.latestJobExecution(instance.id())).orElseThrow().parameters());
    }

    @Test
    void theyNeverTakePartInTheInstancesIdentity() {
        JobInstance instance = given.newInstance("identity");
        tx(() -> repository.createJobExecution(
                JobExecutionRequest.of(instance.id()).withParameters(ExecutionParameters.of(Map.of("threads", 4L)))));
        JobInstanceSelection again = tx(() -> repository.selectOrCreateJobInstance(instance.key()));
        assertFalse(again.created());
        assertEquals(instance.id(), again.instance().id());
        // a second attempt with other parameters is still the same instance: refused while the first runs
        state.assertRefusedChangingNothing(instance.id(), RepositoryError.EXECUTION_ACTIVE,
                () -> repository.createJobExecution(
                        JobExecutionRequest.of(instance.id()).withParameters(ExecutionParameters.of(Map.of("threads", 8L)))));
    }

    @Test
    void theDefinitionFormRecordsThemToo() {
        JobInstance instance = given.newInstance("defined");
        DefinitionIdentity definition = new DefinitionIdentity(instance.jobName(), "1", PlanFingerprint.of(new byte[32]));
        ExecutionParameters parameters = ExecutionParameters.of(Map.of("day", LocalDate.of(2026, 11, 30)));
        JobExecution created = tx(() -> repository
                .createJobExecution(JobExecutionRequest.of(instance.id()).definedBy(definition).withParameters(parameters)));
        assertEquals(parameters, created.parameters());
        assertEquals(definition, created.definition().orElseThrow());
    }

    @Test
    void withoutParametersAnAttemptHasNone() {
        JobInstance instance = given.newInstance("none");
        assertEquals(ExecutionParameters.NONE,
                tx(() -> repository.createJobExecution(JobExecutionRequest.of(instance.id()))).parameters());
    }

    @Test
    void theEncodingIsCanonicalAndStrict() {
        ExecutionParameters parameters = ExecutionParameters.of(Map.of("b", 1L, "a", "x"));
        assertEquals(List.of("a", "b"), List.copyOf(parameters.values().keySet()));
        assertEquals(parameters, ExecutionParameters.fromCanonicalBytes(parameters.canonicalBytes()));
        assertArrayEquals(parameters.canonicalBytes(),
                ExecutionParameters.of(Map.of("a", "x", "b", 1L)).canonicalBytes());
        byte[] trailing = java.util.Arrays.copyOf(parameters.canonicalBytes(), parameters.canonicalBytes().length + 1);
        assertThrows(IllegalArgumentException.class, () -> ExecutionParameters.fromCanonicalBytes(trailing));
        IllegalArgumentException badName = assertThrows(IllegalArgumentException.class,
                () -> ExecutionParameters.of(Map.of("bad name", 1L)));
        assertEquals(true, badName.getMessage().startsWith("parameter name"), badName::getMessage);
    }
}
