package io.durablebatch.deployment.test.retention;

import static io.durablebatch.deployment.test.InvalidValues.assertInvalid;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.repository.retention.PurgeCandidate;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.PurgeSurvey;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC 9: a survey lists, bounded and in id order, the instances whose executions all ended before
 * the cutoff; never one with a hold or an active or UNKNOWN execution.
 */
class PurgeSurveyTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    MetadataSql sql;

    @Test
    void findsAFinishedInstanceWithWhatItObserved() {
        JobName job = freshJobName("survey");
        JobInstance instance = given.instanceWithHistory(job, 2, ExecutionStatus.FAILED, ExecutionStatus.COMPLETED);
        List<JobExecution> executions = tx(() -> repository.jobExecutions(instance.id()));

        PurgeSurvey survey = survey(request(job));

        assertEquals(1, survey.candidates().size());
        PurgeCandidate candidate = survey.candidates().get(0);
        assertEquals(instance.id(), candidate.jobInstanceId());
        assertEquals(job, candidate.jobName());
        assertEquals(2, candidate.executions());
        // each execution counts its creation and each of its versions
        long changes = executions.stream().mapToLong(e -> e.version().value() + 1).sum();
        assertEquals(ExecutionVersion.of(changes), candidate.observedVersion());
        assertEquals(Optional.of(ExecutionStatus.COMPLETED), candidate.latestStatus());
        assertEquals(executions.get(1).endedAt(), candidate.lastEndedAt());
    }

    @Test
    void surveyingIsOneStatement() {
        JobName job = freshJobName("survey");
        given.instanceWithHistory(job, 1, ExecutionStatus.COMPLETED);

        int found = QuarkusTransaction.requiringNew().call(() -> {
            long statements = sql.statementsExecutedOnThisThread();
            int candidates = repository.purgeSurvey(request(job)).candidates().size();
            assertEquals(1, sql.statementsExecutedOnThisThread() - statements, "statements of one survey");
            return candidates;
        });

        assertEquals(1, found);
    }

    @Test
    void anInstanceWithAnExecutionEndedAtOrAfterTheCutoffIsKept() {
        JobName job = freshJobName("survey");
        given.instanceWithHistory(job, 1, ExecutionStatus.COMPLETED);
        Instant cutoff = tx(() -> repository.purgeSurvey(request(job))).candidates().get(0).lastEndedAt().orElseThrow();

        assertTrue(survey(PurgePlanRequest.before(cutoff, 10).forJob(job)).candidates().isEmpty());
        assertEquals(1, survey(PurgePlanRequest.before(cutoff.plusNanos(1000), 10).forJob(job)).candidates().size());
    }

    @Test
    void anInstanceWithAnActiveExecutionIsKept() {
        JobName job = freshJobName("survey");
        given.instanceWithHistory(job, 1, ExecutionStatus.FAILED, ExecutionStatus.STARTED);

        assertTrue(survey(request(job)).candidates().isEmpty());
    }

    @Test
    void anInstanceWithAnUnknownExecutionIsKept() {
        JobName job = freshJobName("survey");
        given.instanceWithHistory(job, 1, ExecutionStatus.UNKNOWN);

        assertTrue(survey(request(job)).candidates().isEmpty());
    }

    @Test
    void aHeldInstanceIsKeptUntilItsHoldIsReleased() {
        JobName job = freshJobName("survey");
        JobInstance held = given.instanceWithHistory(job, 1, ExecutionStatus.COMPLETED);
        JobInstance free = given.instanceWithHistory(job, 1, ExecutionStatus.COMPLETED);
        tx(() -> repository.placeInstanceHold(held.id(), ActorRef.of("legal"), ReasonCode.of("LITIGATION"), now()));

        assertEquals(List.of(free.id()), ids(survey(request(job))));

        tx(() -> repository.releaseInstanceHold(held.id()));
        assertEquals(List.of(held.id(), free.id()), ids(survey(request(job))));
    }

    @Test
    void theJobFilterKeepsOtherJobsOut() {
        JobName job = freshJobName("survey");
        JobName other = freshJobName("survey-other");
        JobInstance mine = given.instanceWithHistory(job, 1, ExecutionStatus.COMPLETED);
        JobInstance theirs = given.instanceWithHistory(other, 1, ExecutionStatus.COMPLETED);

        assertEquals(List.of(mine.id()), ids(survey(request(job))));
        // without the filter, both (the survey starts after every older instance)
        PurgePlanRequest everyJob = PurgePlanRequest.before(now().plusSeconds(60), 10)
                .resumingAfter(JobInstanceId.of(mine.id().value() - 1));
        assertEquals(List.of(mine.id(), theirs.id()), ids(survey(everyJob)));
    }

    @Test
    void theStatusFilterMatchesTheLatestExecution() {
        JobName job = freshJobName("survey");
        JobInstance completedAfterFailing = given.instanceWithHistory(job, 1, ExecutionStatus.FAILED,
                ExecutionStatus.COMPLETED);
        JobInstance stopped = given.instanceWithHistory(job, 1, ExecutionStatus.STOPPED);
        JobInstance abandoned = given.instanceWithHistory(job, 1, ExecutionStatus.ABANDONED);

        assertEquals(List.of(completedAfterFailing.id()),
                ids(survey(request(job).withStatuses(Set.of(ExecutionStatus.COMPLETED)))));
        assertTrue(survey(request(job).withStatuses(Set.of(ExecutionStatus.FAILED))).candidates().isEmpty());
        assertEquals(List.of(stopped.id(), abandoned.id()),
                ids(survey(request(job).withStatuses(Set.of(ExecutionStatus.STOPPED, ExecutionStatus.ABANDONED)))));
        assertEquals(List.of(completedAfterFailing.id(), stopped.id(), abandoned.id()), ids(survey(request(job))));
    }

    @Test
    void anInstanceThatNeverRanIsACandidateOnlyWithoutAStatusFilter() {
        JobName job = freshJobName("survey");
        JobInstance neverRan = tx(() -> repository.selectOrCreateJobInstance(JobInstanceKey.of(job,
                Map.of("run", UUID.randomUUID().toString())))).instance();

        PurgeCandidate candidate = survey(request(job)).candidates().get(0);
        assertEquals(new PurgeCandidate(neverRan.id(), job, 0, ExecutionVersion.INITIAL, Optional.empty(),
                Optional.empty()), candidate);
        assertTrue(survey(request(job).withStatuses(Set.of(ExecutionStatus.COMPLETED))).candidates().isEmpty());
        // created at or after the cutoff: too young
        assertTrue(survey(PurgePlanRequest.before(neverRan.createdAt(), 10).forJob(job)).candidates().isEmpty());
    }

    @Test
    void theLimitBoundsEachBatchAndTheNextRequestResumesInIdOrder() {
        JobName job = freshJobName("survey");
        List<JobInstanceId> all = List.of(
                given.instanceWithHistory(job, 0, ExecutionStatus.COMPLETED).id(),
                given.instanceWithHistory(job, 0, ExecutionStatus.COMPLETED).id(),
                given.instanceWithHistory(job, 0, ExecutionStatus.COMPLETED).id(),
                given.instanceWithHistory(job, 0, ExecutionStatus.COMPLETED).id(),
                given.instanceWithHistory(job, 0, ExecutionStatus.COMPLETED).id());
        PurgePlanRequest request = PurgePlanRequest.before(now().plusSeconds(60), 2).forJob(job);

        PurgeSurvey first = survey(request);
        PurgeSurvey second = survey(first.nextRequest());
        PurgeSurvey third = survey(second.nextRequest());

        assertEquals(all.subList(0, 2), ids(first));
        assertEquals(all.subList(2, 4), ids(second));
        assertEquals(all.subList(4, 5), ids(third));
        assertTrue(first.limitReached());
        assertFalse(third.limitReached());
        assertTrue(survey(third.nextRequest()).candidates().isEmpty());
    }

    @Test
    void requestsAndPlansRejectBadInputNamingTheField() {
        Instant cutoff = now();
        assertInvalid("limit", () -> PurgePlanRequest.before(cutoff, 0));
        assertInvalid("limit", () -> PurgePlanRequest.before(cutoff, PurgePlanRequest.MAX_LIMIT + 1));
        assertInvalid("cutoff", () -> PurgePlanRequest.before(null, 10));
        assertInvalid("statuses", () -> PurgePlanRequest.before(cutoff, 10).withStatuses(Set.of(ExecutionStatus.STARTED)));
        assertInvalid("statuses", () -> PurgePlanRequest.before(cutoff, 10).withStatuses(Set.of(ExecutionStatus.UNKNOWN)));
        PurgeCandidate candidate = new PurgeCandidate(JobInstanceId.of(1), JobName.of("job"), 0, ExecutionVersion.INITIAL,
                Optional.empty(), Optional.empty());
        assertInvalid("candidates", () -> new PurgePlan(List.of(candidate, candidate)));
        assertInvalid("executions", () -> new PurgeCandidate(JobInstanceId.of(1), JobName.of("job"), -1,
                ExecutionVersion.INITIAL, Optional.empty(), Optional.empty()));
    }

    private static PurgePlanRequest request(JobName job) {
        return PurgePlanRequest.before(now().plus(Duration.ofMinutes(1)), 100).forJob(job);
    }

    private PurgeSurvey survey(PurgePlanRequest request) {
        return tx(() -> repository.purgeSurvey(request));
    }

    private static List<JobInstanceId> ids(PurgeSurvey survey) {
        return survey.candidates().stream().map(PurgeCandidate::jobInstanceId).toList();
    }
}
