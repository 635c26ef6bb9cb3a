package org.acme.samples;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.retention.PurgeCounts;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.PurgeSurvey;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.quarkus.narayana.jta.QuarkusTransaction;

/** Purges the job instances that completed or were abandoned more than 90 days ago, 1,000 per transaction. */
@ApplicationScoped
public class PurgeOldRuns {

    private final JobRepository repository;

    PurgeOldRuns(JobRepository repository) {
        this.repository = repository;
    }

    public void purge() {
        PurgePlanRequest request = PurgePlanRequest.before(Instant.now().minus(Duration.ofDays(90)), 1_000)
                .withStatuses(Set.of(ExecutionStatus.COMPLETED, ExecutionStatus.ABANDONED));
        while (true) {
            PurgePlanRequest current = request;
            PurgeSurvey survey = QuarkusTransaction.requiringNew().call(() -> {
                PurgeSurvey found = repository.purgeSurvey(current);
                if (!found.candidates().isEmpty()) {
                    PurgeCounts counts = repository.applyPurge(found.plan());
                    repository.appendRetentionAction(new RetentionRecordDraft(RetentionAction.PURGE,
                            OperationId.of("retention-" + UUID.randomUUID()), ActorRef.of("system:retention"),
                            Optional.empty(), RequestDigest.sha256("purge|" + current),
                            "PURGED " + counts.deletedRows(), Instant.now()));
                }
                return found;
            });
            if (!survey.limitReached()) {
                break;
            }
            request = survey.nextRequest(); // resumes after the last candidate
        }
    }
}
