package io.durablebatch.deployment.test.parameters;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.OperatorTest;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.ParameterDomain;
import io.durablebatch.execution.ParameterValue;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Parameter values have a bounded, lossless domain ({@link ParameterDomain}): a value outside it is
 * refused by the repository with {@code PARAMETER_OUT_OF_DOMAIN}, naming the parameter, before
 * anything is written, whatever the door; values at its bounds are stored and read back exactly; a
 * value stored outside it (before the bound existed) is still listed, compactly.
 */
class ParameterDomainTest extends OperatorTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(OperatorTest.class, Jobs.class);

    private static final String JOB = "domain-job";

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition job() {
            return Job.named(JOB).start(tasklet("only", context -> {
                if (context.parameters().get("fail").isPresent()) {
                    throw new IllegalStateException("told to fail");
                }
                return RepeatStatus.FINISHED;
            })).build();
        }
    }

    /** Values outside the domain, by the name the refusal must give. */
    private static Map<String, Object> outOfDomain() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("infinite", Double.POSITIVE_INFINITY);
        values.put("negativeInfinite", Double.NEGATIVE_INFINITY);
        values.put("billionDigits", new BigDecimal("1e999999999"));
        values.put("tooManyIntegerDigits", BigDecimal.ONE.scaleByPowerOfTen(ParameterDomain.MAX_DECIMAL_INTEGER_DIGITS));
        values.put("tooManyFractionDigits", new BigDecimal("1e-" + (ParameterDomain.MAX_DECIMAL_FRACTION_DIGITS + 1)));
        values.put("tinyDecimal", new BigDecimal("1e-999999999"));
        values.put("lateDate", ParameterDomain.MAX_DATE.plusDays(1));
        values.put("earlyDate", ParameterDomain.MIN_DATE.minusDays(1));
        values.put("farDate", LocalDate.MAX);
        values.put("lateInstant", ParameterDomain.MAX_INSTANT.plusNanos(1_000));
        values.put("earlyInstant", ParameterDomain.MIN_INSTANT.minusSeconds(1));
        values.put("farInstant", Instant.MAX);
        return values;
    }

    @Test
    void aValueOutsideTheDomainIsRefusedNamingItBeforeAnythingIsWritten() {
        outOfDomain().forEach((name, value) -> {
            String run = UUID.randomUUID().toString();
            assertRefusedChangingNothing(name, () -> operator.start(JOB, JobParameters.of(Map.of("run", run, name,
                    value)), OperatorCall.by("tester")));
            assertRefusedChangingNothing(name, () -> operator.start(JOB, JobParameters.of("run", run)
                    .withNonIdentifying(name, value), OperatorCall.by("tester")));
        });
    }

    @Test
    void theRepositoryRefusesThemWhateverTheCaller() {
        outOfDomain().forEach((name, value) -> {
            JobInstanceKey key = JobInstanceKey.of(JobName.of(JOB), Map.of(name, value));
            assertRefusedChangingNothing(name, () -> tx(() -> repository.selectOrCreateJobInstance(key)));
        });
        JobInstance instance = tx(() -> repository.selectOrCreateJobInstance(JobInstanceKey.of(JobName.of(JOB),
                Map.of("run", UUID.randomUUID().toString())))).instance();
        assertRefusedChangingNothing("infinite", () -> tx(() -> repository.createJobExecution(JobExecutionRequest
                .of(instance.id()).withParameters(ExecutionParameters.of(Map.of("infinite", Double.POSITIVE_INFINITY))))));
    }

    @Test
    void aRestartWithNonIdentifyingValuesOutsideTheDomainIsRefused() {
        JobExecution failed = operator.runAndWait(JOB, JobParameters.of("run", UUID.randomUUID().toString())
                .withNonIdentifying("fail", true), OperatorCall.by("tester"));
        assertEquals(ExecutionStatus.FAILED, failed.status());
        List<String> before = stored.of(failed.jobInstanceId());
        RepositoryException refusal = assertThrows(RepositoryException.class, () -> operator.restart(failed.id(),
                ExecutionParameters.of(Map.of("late", ParameterDomain.MAX_DATE.plusDays(1))),
                OperatorCall.by("tester")));
        assertEquals(RepositoryError.PARAMETER_OUT_OF_DOMAIN, refusal.error(), refusal::getMessage);
        assertTrue(refusal.getMessage().contains("'late'"), refusal::getMessage);
        assertEquals(before, stored.of(failed.jobInstanceId()), "stored rows after the refused restart");
    }

    @Test
    void valuesAtTheBoundsAreStoredAndReadBackExactly() {
        Map<String, Object> bounds = new LinkedHashMap<>();
        bounds.put("run", UUID.randomUUID().toString());
        bounds.put("mostIntegerDigits", new BigDecimal("9".repeat(ParameterDomain.MAX_DECIMAL_INTEGER_DIGITS)));
        bounds.put("mostFractionDigits", new BigDecimal("0." + "0".repeat(ParameterDomain.MAX_DECIMAL_FRACTION_DIGITS - 1)
                + "1"));
        bounds.put("largestDouble", -Double.MAX_VALUE);
        bounds.put("firstDate", ParameterDomain.MIN_DATE);
        bounds.put("lastDate", ParameterDomain.MAX_DATE);
        bounds.put("firstInstant", ParameterDomain.MIN_INSTANT);
        bounds.put("lastInstant", ParameterDomain.MAX_INSTANT);
        JobExecution completed = operator.runAndWait(JOB, JobParameters.of(bounds), OperatorCall.by("tester"));
        assertEquals(ExecutionStatus.COMPLETED, completed.status());

        JobInstance instance = tx(() -> repository.getJobInstance(completed.jobInstanceId())).orElseThrow();
        assertEquals(JobParameters.of(bounds).values(), instance.key().parameters());
        // the plain text of a decimal in the domain is its digits, as a user wrote them
        assertEquals("9".repeat(ParameterDomain.MAX_DECIMAL_INTEGER_DIGITS),
                instance.key().parameters().get("mostIntegerDigits").text());
    }

    /**
     * Rows written before the domain was bounded, inserted here with SQL as such a version wrote them:
     * the listings, the instance and the execution are read, their values shown in a few characters.
     */
    @Test
    void valuesStoredOutsideTheDomainStillListCompactly() {
        Map<String, Object> legacy = Map.of("billionDigits", new BigDecimal("1e999999999"),
                "infinite", Double.POSITIVE_INFINITY, "farDate", LocalDate.MAX);
        Map<String, Object> identifying = new LinkedHashMap<>(legacy);
        identifying.put("run", UUID.randomUUID().toString());
        JobInstanceKey key = JobInstanceKey.of(JobName.of(JOB), identifying);
        long instanceId = stored.number("""
                INSERT INTO {p}job_instance (job_name, key_bytes, key_digest, created_at)
                VALUES (?, ?, ?, now()) RETURNING id""", JOB, key.canonicalBytes(), key.digest());
        long executionId = stored.number("""
                INSERT INTO {p}job_execution (job_instance_id, job_name, attempt, status, exit_code, parameters,
                                              created_at, ended_at, last_updated)
                VALUES (?, ?, 1, 'FAILED', 'FAILED', ?, now(), now(), now()) RETURNING id""", instanceId, JOB,
                ExecutionParameters.of(Map.of("budget", new BigDecimal("1e999999999"), "ratio",
                        Double.NEGATIVE_INFINITY)).canonicalBytes());

        JobExecution execution = tx(() -> repository.getJobExecution(JobExecutionId.of(executionId))).orElseThrow();
        assertCompact(execution.parameters().values());
        assertCompact(tx(() -> repository.getJobInstance(JobInstanceId.of(instanceId))).orElseThrow().key()
                .parameters());
        List<JobExecution> listed = tx(() -> repository.findJobExecutions(ExecutionQuery.all().job(JobName.of(JOB)),
                PageRequest.first(100))).items();
        assertTrue(listed.stream().anyMatch(e -> e.id().value() == executionId), "the listing shows the execution");
        List<JobInstance> instances = tx(() -> repository.findJobInstances(JobName.of(JOB), PageRequest.first(100)))
                .items();
        assertTrue(instances.stream().anyMatch(i -> i.id().value() == instanceId), "the listing shows the instance");
        assertEquals("1E+999999999", execution.parameters().values().get("budget").text());

        // relaunching with what was read back is refused, not a second instance
        assertRefusedChangingNothing("budget", () -> operator.restart(JobExecutionId.of(executionId),
                OperatorCall.by("tester")));
    }

    private static void assertCompact(Map<String, ParameterValue> values) {
        values.forEach((name, value) -> {
            assertTrue(name.equals("run") || ParameterDomain.violation(value).isPresent(), name + " is outside the domain");
            assertTrue(value.text().length() < 40, name + " is shown in a few characters: " + value.text());
        });
    }

    private void assertRefusedChangingNothing(String parameter, Supplier<?> call) {
        List<String> before = stored.of(List.of());
        RepositoryException refusal = assertThrows(RepositoryException.class, call::get, parameter);
        assertEquals(RepositoryError.PARAMETER_OUT_OF_DOMAIN, refusal.error(), refusal::getMessage);
        assertTrue(refusal.getMessage().contains("parameter '" + parameter + "'"), refusal::getMessage);
        assertEquals(before, stored.of(List.of()), "stored rows after refusing " + parameter);
    }
}
