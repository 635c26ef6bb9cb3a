package io.durablebatch.rest.runtime;

import java.util.List;
import java.util.Optional;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.PurgeSurvey;
import io.durablebatch.rest.BatchRoles;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * Retention: the holds that keep an instance from any purge, and the purge itself, surveyed first
 * (a read) and then applied to the survey's candidates, through {@link RetentionActions}.
 */
public class RetentionResource extends ApiResource {

    private static final int DEFAULT_SURVEY_LIMIT = 100;

    private final RetentionActions retention;
    private final JobRepository repository;

    protected RetentionResource(RetentionActions retention, JobRepository repository, SecurityIdentity identity,
            ObjectMapper json) {
        super(identity, json);
        this.retention = retention;
        this.repository = repository;
    }

    @GET
    @Path("/holds")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The retention holds in place", description = ApiDocs.READ_ROLES + " Keyset paged.")
    @APIResponse(responseCode = "200", description = "One page of holds", content = @Content(schema = @Schema(implementation = PageView.class)))
    public RestResponse<PageView<HoldView>> holds(@BeanParam PageParameters page, UriInfo uri) {
        return PageParameters.paged(read(() -> repository.findInstanceHolds(page.request())), HoldView::of, uri);
    }

    @GET
    @Path("/instances/{id}/hold")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The retention hold of an instance", description = ApiDocs.READ_ROLES)
    @APIResponse(responseCode = "200", description = "The hold", content = @Content(schema = @Schema(implementation = HoldView.class)))
    @APIResponse(responseCode = "404", description = "JOB_INSTANCE_NOT_FOUND or HOLD_NOT_FOUND")
    public HoldView hold(@RestPath long id) {
        JobInstanceId instanceId = JobInstanceId.of(id);
        return read(() -> {
            Existing.instance(repository, instanceId);
            return repository.jobInstanceHold(instanceId).map(HoldView::of)
                    .orElseThrow(() -> Existing.noHold(instanceId));
        });
    }

    @PUT
    @Path("/instances/{id}/hold")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(BatchRoles.ADMIN)
    @Operation(summary = "Place the retention hold of an instance", description = ApiDocs.ADMIN_ROLES
            + " No purge touches a held instance.")
    @APIResponse(responseCode = "200", description = "The retention audit record", content = @Content(schema = @Schema(implementation = RetentionOutcomeView.class)))
    @APIResponse(responseCode = "404", description = "JOB_INSTANCE_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "HOLD_EXISTS, OPERATION_CONFLICT")
    public RetentionOutcomeView placeHold(@RestPath long id,
            @Parameter(description = ApiDocs.IDEMPOTENCY_KEY) @RestHeader(IDEMPOTENCY_KEY) String key,
            HoldRequest request) {
        ReasonCode reason = ReasonCode.of(request == null ? null : request.reason());
        return RetentionOutcomeView.of(retention.placeHold(JobInstanceId.of(id), reason, call(key)));
    }

    @DELETE
    @Path("/instances/{id}/hold")
    @RolesAllowed(BatchRoles.ADMIN)
    @Operation(summary = "Release the retention hold of an instance", description = ApiDocs.ADMIN_ROLES)
    @APIResponse(responseCode = "200", description = "The retention audit record", content = @Content(schema = @Schema(implementation = RetentionOutcomeView.class)))
    @APIResponse(responseCode = "404", description = "HOLD_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "OPERATION_CONFLICT")
    public RetentionOutcomeView releaseHold(@RestPath long id,
            @Parameter(description = ApiDocs.IDEMPOTENCY_KEY) @RestHeader(IDEMPOTENCY_KEY) String key) {
        return RetentionOutcomeView.of(retention.releaseHold(JobInstanceId.of(id), call(key)));
    }

    @GET
    @Path("/purge/survey")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The instances a purge would delete", description = ApiDocs.READ_ROLES + " Finished "
            + "instances whose executions all ended before 'before', with no hold, in instance id order.")
    @APIResponse(responseCode = "200", description = "The candidates", content = @Content(schema = @Schema(implementation = PurgeSurveyView.class)))
    @APIResponse(responseCode = "422", description = "VALUE_INVALID")
    public PurgeSurveyView purgeSurvey(@Parameter(description = "ISO-8601 instant, required") @RestQuery String before,
            @Parameter(description = "at most this many candidates, 1 to 10000 (default 100)") @RestQuery Integer limit,
            @Parameter(description = "only this job") @RestQuery String job,
            @Parameter(description = "only instances whose latest execution ended so (repeatable)") @RestQuery List<String> status,
            @Parameter(description = "resume after this instance id (a previous survey's resumeAfter)") @RestQuery Long after) {
        PurgePlanRequest request = PurgePlanRequest.before(QueryValues.instant(before, "before"),
                limit == null ? DEFAULT_SURVEY_LIMIT : limit).withStatuses(QueryValues.statuses(status));
        if (job != null) {
            request = request.forJob(JobName.of(job));
        }
        if (after != null) {
            request = request.resumingAfter(JobInstanceId.of(after));
        }
        PurgePlanRequest surveyed = request;
        PurgeSurvey survey = read(() -> repository.purgeSurvey(surveyed));
        return new PurgeSurveyView(survey.candidates().stream().map(PurgeCandidateView::of).toList(),
                survey.limitReached() ? survey.nextRequest().resumeAfter().map(JobInstanceId::value) : Optional.empty());
    }

    @POST
    @Path("/purge")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(BatchRoles.ADMIN)
    @Operation(summary = "Purge the candidates of a survey", description = ApiDocs.ADMIN_ROLES + " Re-validates every "
            + "candidate; if any moved since the survey, nothing is deleted (RETENTION_PLAN_STALE). Audit rows are kept.")
    @APIResponse(responseCode = "200", description = "The retention audit record, with the counts", content = @Content(schema = @Schema(implementation = RetentionOutcomeView.class)))
    @APIResponse(responseCode = "409", description = "RETENTION_PLAN_STALE, OPERATION_CONFLICT")
    @APIResponse(responseCode = "422", description = "VALUE_INVALID")
    public RetentionOutcomeView purge(
            @Parameter(description = ApiDocs.IDEMPOTENCY_KEY) @RestHeader(IDEMPOTENCY_KEY) String key,
            PurgeRequest request) {
        List<PurgeCandidateView> candidates = request == null || request.candidates() == null ? List.of()
                : request.candidates();
        for (int i = 0; i < candidates.size(); i++) {
            if (candidates.get(i) == null) {
                throw new ApiException(ApiError.VALUE_INVALID, "candidates[" + i + "] must be a candidate of a survey, "
                        + "not null", Optional.of("candidates[" + i + "]"));
            }
        }
        PurgePlan plan = new PurgePlan(candidates.stream().map(PurgeCandidateView::candidate).toList());
        return RetentionOutcomeView.of(retention.purge(plan, call(key)));
    }
}
