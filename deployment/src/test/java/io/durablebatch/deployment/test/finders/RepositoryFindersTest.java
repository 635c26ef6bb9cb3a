package io.durablebatch.deployment.test.finders;

import static io.durablebatch.deployment.test.InvalidValues.assertInvalid;
import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static io.durablebatch.execution.ExecutionStatus.STOPPED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §4 finders: by key and by id, the latest attempt, and attempts and steps in creation order,
 * as immutable lists; unknown ids give an empty result, not an error.
 */
class RepositoryFindersTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    MetadataSql sql;

    @Test
    void anInstanceIsFoundByAnEqualKeyAndById() {
        JobName job = freshJobName("finders");
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("region", "emea");
        parameters.put("day", LocalDate.of(2026, 11, 30));
        parameters.put("amount", new BigDecimal("1.50"));
        parameters.put("cutoff", Instant.parse("2026-11-30T00:00:00.123456789Z"));
        parameters.put("dryRun", false);
        parameters.put("ratio", 0.25d);
        parameters.put("batch", 7L);
        JobInstance created = tx(() -> repository.selectOrCreateJobInstance(JobInstanceKey.of(job, parameters)))
                .instance();

        JobInstanceKey sameKeyOtherwiseSpelled = JobInstanceKey.builder(job).put("batch", 7).put("ratio", 0.25d)
                .put("dryRun", false).put("cutoff", Instant.parse("2026-11-30T00:00:00.123456789Z"))
                .put("amount", new BigDecimal("1.5")).put("day", LocalDate.of(2026, 11, 30)).put("region", "emea")
                .build();
        assertEquals(Optional.of(created), tx(() -> repository.findJobInstance(sameKeyOtherwiseSpelled)));
        assertEquals(Optional.of(created), tx(() -> repository.getJobInstance(created.id())));
        assertEquals(sameKeyOtherwiseSpelled, created.key(), "the stored key decodes to the caller's key");
        assertEquals(job, created.jobName());
    }

    @Test
    void unknownKeysAndIdsFindNothing() {
        assertEquals(Optional.empty(), tx(() -> repository.findJobInstance(JobInstanceKey.of(freshJobName("none")))));
        assertEquals(Optional.empty(), tx(() -> repository.getJobInstance(JobInstanceId.of(Long.MAX_VALUE))));
        assertEquals(Optional.empty(), tx(() -> repository.getJobExecution(JobExecutionId.of(Long.MAX_VALUE))));
        assertEquals(Optional.empty(), tx(() -> repository.latestJobExecution(JobInstanceId.of(Long.MAX_VALUE))));
        assertEquals(Optional.empty(), tx(() -> repository.getStepExecution(StepExecutionId.of(Long.MAX_VALUE))));
        assertEquals(List.of(), tx(() -> repository.jobExecutions(JobInstanceId.of(Long.MAX_VALUE))));
        assertEquals(List.of(), tx(() -> repository.stepExecutions(JobExecutionId.of(Long.MAX_VALUE))));
    }

    @Test
    void attemptsAreListedInCreationOrderAndTheLatestIsTheLastOne() {
        JobInstanceId instance = given.newInstance("attempts").id();
        assertEquals(Optional.empty(), tx(() -> repository.latestJobExecution(instance)));
        assertEquals(List.of(), tx(() -> repository.jobExecutions(instance)));

        JobExecution first = given.attemptIn(instance, FAILED);
        JobExecution second = given.attemptIn(instance, STOPPED);
        JobExecution third = given.attemptIn(instance, STARTED);

        List<JobExecution> attempts = tx(() -> repository.jobExecutions(instance));
        assertEquals(List.of(first, second, third), attempts);
        assertEquals(Optional.of(third), tx(() -> repository.latestJobExecution(instance)));
        assertEquals(Optional.of(second), tx(() -> repository.getJobExecution(second.id())));
        assertThrows(UnsupportedOperationException.class, () -> attempts.add(first));
        assertThrows(UnsupportedOperationException.class, () -> attempts.remove(0));
    }

    @Test
    void stepsAreListedInCreationOrder() {
        JobExecution execution = given.jobExecutionIn(STARTED);
        // Names out of alphabetical order, so that an ORDER BY name would show.
        StepExecution charlie = given.stepIn(execution.id(), "charlie", STARTED);
        StepExecution alpha = given.stepIn(execution.id(), "alpha", FAILED);
        StepExecution bravo = given.stepIn(execution.id(), "bravo", STOPPED);
        StepExecution alphaAgain = given.stepIn(execution.id(), "alpha", STARTED);

        List<StepExecution> steps = tx(() -> repository.stepExecutions(execution.id()));
        assertEquals(List.of(charlie, alpha, bravo, alphaAgain), steps);
        assertEquals(Optional.of(bravo), tx(() -> repository.getStepExecution(bravo.id())));
        assertThrows(UnsupportedOperationException.class, () -> steps.add(alpha));
        assertThrows(UnsupportedOperationException.class, steps::clear);

        JobExecution other = given.jobExecutionIn(STARTED);
        assertEquals(List.of(), tx(() -> repository.stepExecutions(other.id())), "steps belong to their execution");
    }

    @Test
    void theStepsOfSeveralExecutionsAreReadInOneStatementEachExecutionsInCreationOrder() {
        JobExecution first = given.jobExecutionIn(STARTED);
        JobExecution second = given.jobExecutionIn(STARTED);
        JobExecution withoutSteps = given.jobExecutionIn(STARTED);
        // interleaved and out of alphabetical order: an order by id or by name alone would mix them
        StepExecution charlie = given.stepIn(first.id(), "charlie", STARTED);
        StepExecution bravo = given.stepIn(second.id(), "bravo", FAILED);
        StepExecution alpha = given.stepIn(first.id(), "alpha", FAILED);
        StepExecution alphaOfSecond = given.stepIn(second.id(), "alpha", STOPPED);
        JobExecutionId unknown = JobExecutionId.of(Long.MAX_VALUE);

        Map<JobExecutionId, List<StepExecution>> steps = tx(() -> assertStatements(sql, 1,
                () -> repository.stepExecutions(List.of(second.id(), first.id(), withoutSteps.id(), unknown))));

        assertEquals(Map.of(first.id(), List.of(charlie, alpha), second.id(), List.of(bravo, alphaOfSecond),
                withoutSteps.id(), List.of(), unknown, List.of()), steps, "every execution given is a key");
        assertEquals(tx(() -> repository.stepExecutions(first.id())), steps.get(first.id()), "as one execution's");
        assertThrows(UnsupportedOperationException.class, () -> steps.get(first.id()).add(alpha));
        assertThrows(UnsupportedOperationException.class, steps::clear);
        assertEquals(Map.of(), tx(() -> assertStatements(sql, 0, () -> repository.stepExecutions(List.of()))),
                "no executions, no statement");
    }

    @Test
    void theStepsOfAtMostAPageOfExecutionsAreReadAtOnce() {
        List<JobExecutionId> tooMany = LongStream.rangeClosed(1, PageRequest.MAX_SIZE + 1).mapToObj(JobExecutionId::of)
                .toList();

        assertInvalid("jobExecutionIds must name at most 500 executions, got 501",
                () -> tx(() -> repository.stepExecutions(tooMany)));
        assertEquals(PageRequest.MAX_SIZE, tx(() -> repository.stepExecutions(tooMany.subList(0, PageRequest.MAX_SIZE)))
                .size());
    }

    /**
     * The latest attempt of a step in the instance's other executions, in one statement, is what
     * reading the instance's executions newest first, each one's steps, until one ran the step,
     * found: for every step name and every execution as the current one, with executions that ran the
     * step twice, once (completed) or not at all.
     */
    @Test
    void theLatestAttemptOfAStepInAnotherExecutionIsTheOneReadingThemInTurnFinds() {
        JobInstance instance = given.newInstance("latest-before");
        JobExecution first = given.attemptIn(instance.id(), STARTED);
        given.stepIn(first.id(), "load", FAILED);
        StepExecution firstLoad = given.stepIn(first.id(), "load", FAILED);
        StepExecution firstMark = given.endStep(given.stepIn(first.id(), "mark", STARTED), COMPLETED, "COMPLETED",
                StepCounters.ZERO);
        given.move(first, FAILED);
        JobExecution second = given.attemptIn(instance.id(), STARTED);
        StepExecution secondMark = given.stepIn(second.id(), "mark", FAILED);
        given.move(second, FAILED);
        JobExecution third = given.attemptIn(instance.id(), STARTED);
        StepExecution thirdLoad = given.stepIn(third.id(), "load", STARTED);
        JobInstance other = given.newInstance("latest-before");
        given.stepIn(given.attemptIn(other.id(), STARTED).id(), "load", STARTED);

        // by current execution, then step name: the attempt found (null for none)
        Map<JobExecution, List<StepExecution>> expected = new LinkedHashMap<>();
        expected.put(first, Arrays.asList(thirdLoad, secondMark, null));
        expected.put(second, Arrays.asList(thirdLoad, firstMark, null));
        expected.put(third, Arrays.asList(firstLoad, secondMark, null));
        List<String> names = List.of("load", "mark", "missing");
        expected.forEach((current, attempts) -> {
            for (int i = 0; i < names.size(); i++) {
                StepName step = StepName.of(names.get(i));
                Optional<StepExecution> found = tx(() -> assertStatements(sql, 1,
                        () -> repository.latestStepExecutionBefore(instance.id(), step, current.id())));
                String name = step + " before attempt " + current.attempt();
                assertEquals(Optional.ofNullable(attempts.get(i)), found, name);
                assertEquals(tx(() -> readInTurn(instance.id(), step, current.id())), found, name + ", read in turn");
            }
        });
    }

    /** The latest attempt as the kernel found it before: the instance's executions newest first, each one's steps. */
    private Optional<StepExecution> readInTurn(JobInstanceId instance, StepName step, JobExecutionId current) {
        List<JobExecution> executions = repository.jobExecutions(instance);
        for (int i = executions.size() - 1; i >= 0; i--) {
            if (!executions.get(i).id().equals(current)) {
                Optional<StepExecution> attempt = repository.stepExecutions(executions.get(i).id()).stream()
                        .filter(candidate -> candidate.stepName().equals(step)).reduce((earlier, later) -> later);
                if (attempt.isPresent()) {
                    return attempt;
                }
            }
        }
        return Optional.empty();
    }
}
