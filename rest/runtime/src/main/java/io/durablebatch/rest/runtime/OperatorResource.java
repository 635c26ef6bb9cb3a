package io.durablebatch.rest.runtime;

import java.net.URI;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriBuilder;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageCursor;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.PurgeSurvey;
import io.durablebatch.rest.BatchRoles;
import io.durablebatch.rest.Problem;
import io.durablebatch.schedule.Schedules;
import io.quarkus.arc.Arc;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.common.annotation.Blocking;
import io.vertx.ext.web.RoutingContext;

/**
 * The operator REST API under {@code quarkus.durable-batch.rest.root-path} (default {@code /batch}).
 * The class has no {@code @Path} of its own (JAX-RS paths take no configuration): the extension
 * generates, at build time, the subclass that Quarkus REST serves, with the configured root as its
 * {@code @Path} and the {@link ProblemMapper} methods as its exception mappers, and tells SmallRye
 * OpenAPI the same root through {@link OpenApiResourcePathConfigSourceFactory}. Every endpoint is
 * blocking (it runs on a worker thread: the repository speaks JDBC) and carries
 * {@code @RolesAllowed} with the role expressions of {@link BatchRoles}. Every refusal is an RFC 9457
 * problem, mapped by the exception mappers of {@link ProblemResponses} for this resource alone, so the
 * application's own error handling stays as it is.
 */
@Blocking
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Durable Batch", description = "Operate batch jobs: read, start, stop, restart, recover, hold, purge")
@APIResponse(responseCode = "401", description = "No authenticated caller")
@APIResponse(responseCode = "403", description = "The caller lacks the endpoint's role")
@APIResponse(responseCode = "503", description = "STORAGE_TRANSIENT: retry after Retry-After seconds", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class OperatorResource extends ProblemResponses {

    /** The header whose value becomes the operation id of an action. */
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private static final String IDEMPOTENCY_DOC = "the operation id of the action: a retried request with the same key "
            + "is answered from the audit record, never applied twice (without it the action gets a fresh one)";

    private static final int DEFAULT_PAGE_SIZE = 50;

    /** The earliest instant a filter may name. */
    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

    /** The latest instant a filter may name. */
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private static final String CURSOR_DOC = "the next of the previous page; absent: the first page";

    private static final String SIZE_DOC = "items per page, 1 to 500 (default 50)";

    private static final String INSTANCE_DOC = "only the records of this job instance";

    private static final String IF_MATCH_DOC = "the execution's version as its ETag, e.g. \"7\": the action is refused "
            + "(412) if the execution moved since";

    private final ExecutionActions executions;
    private final RetentionActions retention;
    private final JobRepository repository;
    private final JobOperator jobs;
    private final SecurityIdentity identity;
    private final ObjectMapper json;
    private final String root;
    private final Schedules schedules;

    protected OperatorResource(ExecutionActions executions, RetentionActions retention, JobRepository repository,
            JobOperator jobs, SecurityIdentity identity, ObjectMapper json, DurableBatchRestBuildTimeConfig config,
            Schedules schedules) {
        super(identity, json);
        this.schedules = schedules;
        this.root = ApiPath.of(config);
        this.jobs = jobs;
        this.executions = executions;
        this.retention = retention;
        this.repository = repository;
        this.identity = identity;
        this.json = json;
    }

    // Reads

    @GET
    @Path("/jobs")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The jobs this application defines", description = "Roles: viewer, operator, admin. Name, "
            + "revision, plan fingerprint, nodes and transitions of each, by name.")
    @APIResponse(responseCode = "200", description = "The job definitions", content = @Content(schema = @Schema(implementation = JobDefinitionView.class, type = SchemaType.ARRAY)))
    public List<JobDefinitionView> jobs() {
        return jobs.jobDefinitions().stream().map(JobDefinitionView::of)
                .sorted(Comparator.comparing(JobDefinitionView::name)).toList();
    }

    @GET
    @Path("/jobs/{job}")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "One job definition", description = "Roles: viewer, operator, admin.")
    @APIResponse(responseCode = "200", description = "The job definition", content = @Content(schema = @Schema(implementation = JobDefinitionView.class)))
    @APIResponse(responseCode = "404", description = "JOB_NOT_DEFINED", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public JobDefinitionView job(@RestPath String job) {
        return jobs.jobDefinition(job).map(JobDefinitionView::of).orElseThrow(() -> new RepositoryException(
                RepositoryError.JOB_NOT_DEFINED, "no job named '" + job + "' is defined in this application"));
    }

    @GET
    @Path("/jobs/{job}/instances")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The instances of a job, newest first", description = "Roles: viewer, operator, admin. Keyset "
            + "paged: pass a page's next as cursor.")
    @APIResponse(responseCode = "200", description = "One page of instances", content = @Content(schema = @Schema(implementation = PageView.class)))
    @APIResponse(responseCode = "422", description = "VALUE_INVALID (page.size, page.after)", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RestResponse<PageView<InstanceView>> instances(@RestPath String job,
            @Parameter(description = CURSOR_DOC) @RestQuery String cursor,
            @Parameter(description = SIZE_DOC) @RestQuery Integer size, UriInfo uri) {
        JobName name = JobName.of(job);
        PageRequest page = page(cursor, size);
        return paged(read(() -> repository.findJobInstances(name, page)), InstanceView::of, uri);
    }

    @GET
    @Path("/executions")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Executions, newest first, filtered", description = "Roles: viewer, operator, admin. Every "
            + "filter is optional and all given ones must hold. Keyset paged (one statement per page): pass a page's "
            + "next as cursor.")
    @APIResponse(responseCode = "200", description = "One page of executions", content = @Content(schema = @Schema(implementation = PageView.class)))
    @APIResponse(responseCode = "422", description = "VALUE_INVALID (a filter, page.size, page.after)", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RestResponse<PageView<ExecutionView>> executions(@Parameter(description = "only this job") @RestQuery String job,
            @Parameter(description = "only these statuses (repeatable)") @RestQuery List<String> status,
            @Parameter(description = "created at or after this ISO-8601 instant") @RestQuery String createdFrom,
            @Parameter(description = "created before this ISO-8601 instant") @RestQuery String createdBefore,
            @Parameter(description = "only those this owner token holds") @RestQuery String owner,
            @Parameter(description = CURSOR_DOC) @RestQuery String cursor,
            @Parameter(description = SIZE_DOC) @RestQuery Integer size,
            UriInfo uri) {
        ExecutionQuery query = ExecutionQuery.all().statuses(statuses(status));
        if (job != null) {
            query = query.job(JobName.of(job));
        }
        if (createdFrom != null) {
            query = query.createdFrom(instant(createdFrom, "createdFrom"));
        }
        if (createdBefore != null) {
            query = query.createdBefore(instant(createdBefore, "createdBefore"));
        }
        if (owner != null) {
            query = query.ownedBy(OwnerToken.of(owner));
        }
        ExecutionQuery filters = query;
        PageRequest page = page(cursor, size);
        return paged(read(() -> repository.findJobExecutions(filters, page)), ExecutionView::of, uri);
    }

    @GET
    @Path("/executions/{id}/steps/{stepId}/partitions")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The partitions of a partitioned step, in plan order", description = "Roles: viewer, operator, admin. Keyset paged.")
    @APIResponse(responseCode = "200", description = "One page of partitions", content = @Content(schema = @Schema(implementation = PageView.class)))
    @APIResponse(responseCode = "404", description = "STEP_EXECUTION_NOT_FOUND (in this execution)", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RestResponse<PageView<PartitionView>> partitions(@RestPath long id, @RestPath long stepId,
            @Parameter(description = CURSOR_DOC) @RestQuery String cursor,
            @Parameter(description = SIZE_DOC) @RestQuery Integer size,
            UriInfo uri) {
        StepExecutionId step = StepExecutionId.of(stepId);
        PageRequest page = page(cursor, size);
        return paged(read(() -> {
            repository.getStepExecution(step).filter(s -> s.jobExecutionId().value() == id).orElseThrow(
                    () -> new RepositoryException(RepositoryError.STEP_EXECUTION_NOT_FOUND, "job execution " + id
                            + " has no step execution " + stepId));
            return repository.stepPartitions(step, page);
        }), PartitionView::of, uri);
    }

    @GET
    @Path("/audit/operator")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The operator audit, newest first", description = "Roles: viewer, operator, admin. Optionally of one instance. Keyset paged.")
    @APIResponse(responseCode = "200", description = "One page of operator records", content = @Content(schema = @Schema(implementation = PageView.class)))
    public RestResponse<PageView<OperatorRecordView>> operatorAudit(
            @Parameter(description = INSTANCE_DOC) @RestQuery Long instance,
            @Parameter(description = CURSOR_DOC) @RestQuery String cursor,
            @Parameter(description = SIZE_DOC) @RestQuery Integer size,
            UriInfo uri) {
        Optional<JobInstanceId> of = Optional.ofNullable(instance).map(JobInstanceId::of);
        PageRequest page = page(cursor, size);
        return paged(read(() -> repository.findOperatorRecords(of, page)), OperatorRecordView::of, uri);
    }

    @GET
    @Path("/audit/recovery")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The recovery audit, newest first", description = "Roles: viewer, operator, admin. Optionally of one instance. Keyset paged.")
    @APIResponse(responseCode = "200", description = "One page of recovery decisions", content = @Content(schema = @Schema(implementation = PageView.class)))
    public RestResponse<PageView<RecoveryView.Decision>> recoveryAudit(
            @Parameter(description = INSTANCE_DOC) @RestQuery Long instance,
            @Parameter(description = CURSOR_DOC) @RestQuery String cursor,
            @Parameter(description = SIZE_DOC) @RestQuery Integer size,
            UriInfo uri) {
        Optional<JobInstanceId> of = Optional.ofNullable(instance).map(JobInstanceId::of);
        PageRequest page = page(cursor, size);
        return paged(read(() -> repository.findRecoveryDecisions(of, page)), RecoveryView.Decision::of, uri);
    }

    @GET
    @Path("/audit/retention")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The retention audit (holds and purges), newest first", description = "Roles: viewer, operator, admin. Optionally of one instance. Keyset paged.")
    @APIResponse(responseCode = "200", description = "One page of retention records", content = @Content(schema = @Schema(implementation = PageView.class)))
    public RestResponse<PageView<RetentionOutcomeView>> retentionAudit(
            @Parameter(description = INSTANCE_DOC) @RestQuery Long instance,
            @Parameter(description = CURSOR_DOC) @RestQuery String cursor,
            @Parameter(description = SIZE_DOC) @RestQuery Integer size,
            UriInfo uri) {
        Optional<JobInstanceId> of = Optional.ofNullable(instance).map(JobInstanceId::of);
        PageRequest page = page(cursor, size);
        return paged(read(() -> repository.findRetentionRecords(of, page)), RetentionOutcomeView::of, uri);
    }

    @GET
    @Path("/holds")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The retention holds in place", description = "Roles: viewer, operator, admin. Keyset paged.")
    @APIResponse(responseCode = "200", description = "One page of holds", content = @Content(schema = @Schema(implementation = PageView.class)))
    public RestResponse<PageView<HoldView>> holds(@Parameter(description = CURSOR_DOC) @RestQuery String cursor,
            @Parameter(description = SIZE_DOC) @RestQuery Integer size, UriInfo uri) {
        PageRequest page = page(cursor, size);
        return paged(read(() -> repository.findInstanceHolds(page)), HoldView::of, uri);
    }

    @GET
    @Path("/executions/{id}")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "One execution with its steps and flow decisions", description = "Roles: viewer, operator, admin. The ETag is the execution's version.")
    @APIResponse(responseCode = "200", description = "The execution", content = @Content(schema = @Schema(implementation = ExecutionDetail.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RestResponse<ExecutionDetail> execution(@RestPath long id) {
        JobExecutionId executionId = JobExecutionId.of(id);
        ExecutionDetail detail = read(() -> {
            JobExecution execution = existing(executionId);
            return new ExecutionDetail(ExecutionView.of(execution),
                    repository.stepExecutions(executionId).stream().map(StepView::of).toList(),
                    repository.flowDecisions(executionId).stream().map(FlowDecisionView::of).toList(),
                    OwnershipView.of(repository.executionOwnership(executionId).orElseThrow()));
        });
        return tagged(RestResponse.ResponseBuilder.ok(detail), detail.execution().version()).build();
    }

    @GET
    @Path("/executions/{id}/recovery")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The recovery decision of an execution", description = "Roles: viewer, operator, admin.")
    @APIResponse(responseCode = "200", description = "The recorded decision", content = @Content(schema = @Schema(implementation = RecoveryView.Decision.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND or NOT_FOUND (never recovered)", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RecoveryView.Decision recovery(@RestPath long id) {
        JobExecutionId executionId = JobExecutionId.of(id);
        return read(() -> {
            existing(executionId);
            return repository.recoveryDecision(executionId).map(RecoveryView.Decision::of)
                    .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "job execution " + id
                            + " was never recovered", Optional.empty()));
        });
    }

    @GET
    @Path("/instances/{id}")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "One job instance with its executions and hold", description = "Roles: viewer, operator, admin.")
    @APIResponse(responseCode = "200", description = "The instance", content = @Content(schema = @Schema(implementation = InstanceDetail.class)))
    @APIResponse(responseCode = "404", description = "JOB_INSTANCE_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public InstanceDetail instance(@RestPath long id) {
        JobInstanceId instanceId = JobInstanceId.of(id);
        return read(() -> new InstanceDetail(
                InstanceView.of(repository.getJobInstance(instanceId).orElseThrow(() -> instanceNotFound(instanceId))),
                repository.jobExecutions(instanceId).stream().map(ExecutionView::of).toList(),
                repository.jobInstanceHold(instanceId).map(HoldView::of)));
    }

    @GET
    @Path("/jobs/{job}/instance")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The instance of a job for identifying parameters", description = "Roles: viewer, operator, admin. "
            + "parameters is a JSON object of typed values, as a launch takes them.")
    @APIResponse(responseCode = "200", description = "The instance", content = @Content(schema = @Schema(implementation = InstanceView.class)))
    @APIResponse(responseCode = "404", description = "JOB_INSTANCE_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "422", description = "VALUE_INVALID", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public InstanceView instanceByParameters(@RestPath String job,
            @Parameter(description = "identifying parameters as a JSON object, e.g. {\"day\":{\"date\":\"2026-12-01\"}}") @RestQuery String parameters) {
        JobInstanceKey key = JobInstanceKey.of(JobName.of(job), ParameterJson.read(parse(parameters, "parameters"),
                "parameters"));
        return read(() -> repository.findJobInstance(key).map(InstanceView::of).orElseThrow(
                () -> new RepositoryException(RepositoryError.JOB_INSTANCE_NOT_FOUND, "no instance of job " + job
                        + " has these identifying parameters")));
    }

    @GET
    @Path("/instances/{id}/hold")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The retention hold of an instance", description = "Roles: viewer, operator, admin.")
    @APIResponse(responseCode = "200", description = "The hold", content = @Content(schema = @Schema(implementation = HoldView.class)))
    @APIResponse(responseCode = "404", description = "JOB_INSTANCE_NOT_FOUND or HOLD_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public HoldView hold(@RestPath long id) {
        JobInstanceId instanceId = JobInstanceId.of(id);
        return read(() -> {
            repository.getJobInstance(instanceId).orElseThrow(() -> instanceNotFound(instanceId));
            return repository.jobInstanceHold(instanceId).map(HoldView::of).orElseThrow(
                    () -> new ApiException(ApiError.HOLD_NOT_FOUND, "job instance " + id + " has no retention hold",
                            Optional.empty()));
        });
    }

    @GET
    @Path("/purge/survey")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The instances a purge would delete", description = "Roles: viewer, operator, admin. Finished "
            + "instances whose executions all ended before 'before', with no hold, in instance id order.")
    @APIResponse(responseCode = "200", description = "The candidates", content = @Content(schema = @Schema(implementation = PurgeSurveyView.class)))
    @APIResponse(responseCode = "422", description = "VALUE_INVALID", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public PurgeSurveyView purgeSurvey(@Parameter(description = "ISO-8601 instant, required") @RestQuery String before,
            @Parameter(description = "at most this many candidates, 1 to 10000 (default 100)") @RestQuery Integer limit,
            @Parameter(description = "only this job") @RestQuery String job,
            @Parameter(description = "only instances whose latest execution ended so (repeatable)") @RestQuery List<String> status,
            @Parameter(description = "resume after this instance id (a previous survey's resumeAfter)") @RestQuery Long after) {
        PurgePlanRequest request = PurgePlanRequest.before(instant(before, "before"), limit == null ? 100 : limit)
                .withStatuses(statuses(status));
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

    // Schedules

    @GET
    @Path("/schedules")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The schedules of the application's jobs", description = "Roles: viewer, operator, admin. "
            + "Each with its next fire times, its last fire and the execution it launched, and whether it is paused.")
    @APIResponse(responseCode = "200", description = "The schedules, by job name", content = @Content(schema = @Schema(implementation = ScheduleView.class, type = SchemaType.ARRAY)))
    public List<ScheduleView> schedules() {
        return schedules.list().stream().map(ScheduleView::of).toList();
    }

    @GET
    @Path("/schedules/{job}")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The schedule of a job", description = "Roles: viewer, operator, admin.")
    @APIResponse(responseCode = "200", description = "The schedule", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @APIResponse(responseCode = "404", description = "SCHEDULE_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public ScheduleView schedule(@RestPath String job) {
        return ScheduleView.of(schedules.get(job).orElseThrow(() -> scheduleNotFound(job)));
    }

    @POST
    @Path("/schedules/{job}/pause")
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Pause a schedule", description = "Roles: operator, admin. Every replica stops launching the "
            + "job from its next fire time on, restarts included; the fire times that pass are skipped, never caught "
            + "up. Audited; pausing a paused schedule changes nothing. Idempotent with Idempotency-Key.")
    @APIResponse(responseCode = "200", description = "The schedule, paused", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @APIResponse(responseCode = "404", description = "SCHEDULE_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public ScheduleView pauseSchedule(@RestPath String job,
            @Parameter(description = IDEMPOTENCY_DOC) @RestHeader(IDEMPOTENCY_KEY) String key) {
        OperatorCall call = call(key);
        schedules.get(job).orElseThrow(() -> scheduleNotFound(job));
        return ScheduleView.of(schedules.pause(job, call));
    }

    @POST
    @Path("/schedules/{job}/resume")
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Resume a schedule", description = "Roles: operator, admin. The job is launched again from "
            + "its next fire time on. Audited; resuming a running schedule changes nothing. Idempotent with "
            + "Idempotency-Key.")
    @APIResponse(responseCode = "200", description = "The schedule, running", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @APIResponse(responseCode = "404", description = "SCHEDULE_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public ScheduleView resumeSchedule(@RestPath String job,
            @Parameter(description = IDEMPOTENCY_DOC) @RestHeader(IDEMPOTENCY_KEY) String key) {
        OperatorCall call = call(key);
        schedules.get(job).orElseThrow(() -> scheduleNotFound(job));
        return ScheduleView.of(schedules.resume(job, call));
    }

    private static ApiException scheduleNotFound(String job) {
        return new ApiException(ApiError.SCHEDULE_NOT_FOUND, "job '" + job + "' has no schedule", Optional.empty());
    }

    // Operator actions

    @POST
    @Path("/jobs/{job}/executions")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Start a job", description = "Roles: operator, admin. Launches the instance of these identifying "
            + "parameters: a first attempt, or a restart of its STOPPED or FAILED latest one. Idempotent with Idempotency-Key.")
    @APIResponse(responseCode = "202", description = "The attempt is recorded and runs", content = @Content(schema = @Schema(implementation = ExecutionView.class)))
    @APIResponse(responseCode = "404", description = "JOB_NOT_DEFINED", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "EXECUTION_ACTIVE, INSTANCE_COMPLETE, INSTANCE_ABANDONED, EXECUTION_UNKNOWN, DEFINITION_INCOMPATIBLE, OPERATION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "422", description = "VALUE_INVALID", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RestResponse<ExecutionView> start(@RestPath String job,
            @Parameter(description = IDEMPOTENCY_DOC) @RestHeader(IDEMPOTENCY_KEY) String key,
            StartRequest request) {
        StartRequest body = request == null ? new StartRequest(null, null) : request;
        JobParameters parameters = new JobParameters(ParameterJson.read(body.parameters(), "parameters"),
                ParameterJson.read(body.nonIdentifying(), "nonIdentifying"));
        return launched(executions.start(job, parameters, call(key)));
    }

    @POST
    @Path("/executions/{id}/restart")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Restart a STOPPED or FAILED execution", description = "Roles: operator, admin. Its unfinished "
            + "steps resume from their checkpoints; the body may replace its non-identifying parameters.")
    @APIResponse(responseCode = "202", description = "The new attempt", content = @Content(schema = @Schema(implementation = ExecutionView.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND, JOB_NOT_DEFINED", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "EXECUTION_SUPERSEDED, EXECUTION_ACTIVE, INSTANCE_COMPLETE, INSTANCE_ABANDONED, OPERATION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "412", description = "VERSION_CONFLICT: If-Match is not the execution's version", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RestResponse<ExecutionView> restart(@RestPath long id,
            @Parameter(description = IDEMPOTENCY_DOC) @RestHeader(IDEMPOTENCY_KEY) String key,
            @Parameter(description = IF_MATCH_DOC) @RestHeader(EntityTags.IF_MATCH) String ifMatch, RestartRequest request) {
        Optional<ExecutionParameters> nonIdentifying = Optional.ofNullable(request).map(RestartRequest::nonIdentifying)
                .filter(node -> !node.isNull())
                .map(node -> new ExecutionParameters(ParameterJson.read(node, "nonIdentifying")));
        return launched(executions.restart(JobExecutionId.of(id), nonIdentifying, Optional.ofNullable(ifMatch),
                call(key)));
    }

    @POST
    @Path("/executions/{id}/stop")
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Ask a running execution to stop", description = "Roles: operator, admin. It stops at its next "
            + "chunk boundary and ends STOPPED, restartable.")
    @APIResponse(responseCode = "200", description = "The execution, stop requested", content = @Content(schema = @Schema(implementation = ExecutionView.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "EXECUTION_NOT_ACTIVE, ILLEGAL_TRANSITION, STOP_ALREADY_REQUESTED, OWNER_MISMATCH, OPERATION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "412", description = "VERSION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RestResponse<ExecutionView> stop(@RestPath long id,
            @Parameter(description = IDEMPOTENCY_DOC) @RestHeader(IDEMPOTENCY_KEY) String key,
            @Parameter(description = IF_MATCH_DOC) @RestHeader(EntityTags.IF_MATCH) String ifMatch) {
        return current(executions.stop(JobExecutionId.of(id), Optional.ofNullable(ifMatch), call(key)));
    }

    @POST
    @Path("/executions/{id}/abandon")
    @RolesAllowed(BatchRoles.ADMIN)
    @Operation(summary = "Abandon a STOPPED or FAILED execution for good", description = "Roles: admin. Its instance can never run again.")
    @APIResponse(responseCode = "200", description = "The execution, ABANDONED", content = @Content(schema = @Schema(implementation = ExecutionView.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "ILLEGAL_TRANSITION, EXECUTION_SUPERSEDED, OPERATION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "412", description = "VERSION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RestResponse<ExecutionView> abandon(@RestPath long id,
            @Parameter(description = IDEMPOTENCY_DOC) @RestHeader(IDEMPOTENCY_KEY) String key,
            @Parameter(description = IF_MATCH_DOC) @RestHeader(EntityTags.IF_MATCH) String ifMatch) {
        return current(executions.abandon(JobExecutionId.of(id), Optional.ofNullable(ifMatch), call(key)));
    }

    @POST
    @Path("/executions/{id}/recover")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(BatchRoles.ADMIN)
    @Operation(summary = "Recover an orphaned or UNKNOWN execution", description = "Roles: admin. Resolves it FAILED "
            + "(restartable) or ABANDONED. If-Match (required) is the version the decision is based on.")
    @APIResponse(responseCode = "200", description = "The recorded decision and the execution", content = @Content(schema = @Schema(implementation = RecoveryView.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "EXECUTION_LEASE_LIVE, EXECUTION_NOT_RECOVERABLE, ALREADY_RECOVERED, OPERATION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "412", description = "VERSION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "428", description = "PRECONDITION_REQUIRED: no If-Match", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RecoveryView recover(@RestPath long id,
            @Parameter(description = IDEMPOTENCY_DOC) @RestHeader(IDEMPOTENCY_KEY) String key,
            @Parameter(description = IF_MATCH_DOC) @RestHeader(EntityTags.IF_MATCH) String ifMatch, RecoverRequest request) {
        if (request == null) {
            throw new ApiException(ApiError.VALUE_INVALID, "a recovery needs a body with resolution and reason",
                    Optional.of("resolution"));
        }
        if (request.resolution() == null) {
            throw new IllegalArgumentException("resolution must be FAILED or ABANDONED");
        }
        return executions.recover(JobExecutionId.of(id), Optional.ofNullable(ifMatch), request, call(key));
    }

    // Retention actions

    @PUT
    @Path("/instances/{id}/hold")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(BatchRoles.ADMIN)
    @Operation(summary = "Place the retention hold of an instance", description = "Roles: admin. No purge touches a held instance.")
    @APIResponse(responseCode = "200", description = "The retention audit record", content = @Content(schema = @Schema(implementation = RetentionOutcomeView.class)))
    @APIResponse(responseCode = "404", description = "JOB_INSTANCE_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "HOLD_EXISTS, OPERATION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RetentionOutcomeView placeHold(@RestPath long id,
            @Parameter(description = IDEMPOTENCY_DOC) @RestHeader(IDEMPOTENCY_KEY) String key,
            HoldRequest request) {
        ReasonCode reason = ReasonCode.of(request == null ? null : request.reason());
        return RetentionOutcomeView.of(retention.placeHold(JobInstanceId.of(id), reason, call(key)));
    }

    @DELETE
    @Path("/instances/{id}/hold")
    @RolesAllowed(BatchRoles.ADMIN)
    @Operation(summary = "Release the retention hold of an instance", description = "Roles: admin.")
    @APIResponse(responseCode = "200", description = "The retention audit record", content = @Content(schema = @Schema(implementation = RetentionOutcomeView.class)))
    @APIResponse(responseCode = "404", description = "HOLD_NOT_FOUND", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "OPERATION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RetentionOutcomeView releaseHold(@RestPath long id,
            @Parameter(description = IDEMPOTENCY_DOC) @RestHeader(IDEMPOTENCY_KEY) String key) {
        return RetentionOutcomeView.of(retention.releaseHold(JobInstanceId.of(id), call(key)));
    }

    @POST
    @Path("/purge")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(BatchRoles.ADMIN)
    @Operation(summary = "Purge the candidates of a survey", description = "Roles: admin. Re-validates every candidate; "
            + "if any moved since the survey, nothing is deleted (RETENTION_PLAN_STALE). Audit rows are kept.")
    @APIResponse(responseCode = "200", description = "The retention audit record, with the counts", content = @Content(schema = @Schema(implementation = RetentionOutcomeView.class)))
    @APIResponse(responseCode = "409", description = "RETENTION_PLAN_STALE, OPERATION_CONFLICT", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "422", description = "VALUE_INVALID", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RetentionOutcomeView purge(@Parameter(description = IDEMPOTENCY_DOC) @RestHeader(IDEMPOTENCY_KEY) String key,
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

    // Helpers

    /** The page a request asks for: after its cursor, of its size (default {@value #DEFAULT_PAGE_SIZE}). */
    private static PageRequest page(String cursor, Integer size) {
        int items = size == null ? DEFAULT_PAGE_SIZE : size;
        return cursor == null ? PageRequest.first(items) : PageRequest.after(PageCursor.of(cursor), items);
    }

    /**
     * A page, with the link of the next one (this request with that cursor) in a Link header: a
     * relative reference (path and query), never built from the request's {@code Host}.
     */
    private static <S, T> RestResponse<PageView<T>> paged(Page<S> page, Function<S, T> view, UriInfo uri) {
        RestResponse.ResponseBuilder<PageView<T>> response = RestResponse.ResponseBuilder.ok(PageView.of(page, view));
        URI request = uri.getRequestUri();
        String relative = request.getRawPath() + (request.getRawQuery() == null ? "" : "?" + request.getRawQuery());
        page.next().ifPresent(next -> response.header("Link", "<" + UriBuilder.fromUri(relative)
                .replaceQueryParam("cursor", next.value()).build() + ">; rel=\"next\""));
        return response.build();
    }

    /**
     * The caller and operation id of an action: a fresh one without an Idempotency-Key. The actor is
     * the authenticated principal, and the key is the actor's own (another caller's same key is
     * another operation). A key that is present but empty is refused: taken as no key, a retry
     * would be applied twice.
     */
    private OperatorCall call(String idempotencyKey) {
        if (idempotencyKey == null ? emptyKeySent() : idempotencyKey.isBlank()) {
            throw new ApiException(ApiError.REQUEST_MALFORMED, IDEMPOTENCY_KEY + " is empty: send an operation id "
                    + "(letters, digits and _-.:/@) or no header at all", Optional.of(IDEMPOTENCY_KEY));
        }
        OperationId operationId;
        try {
            operationId = OperationId.of(idempotencyKey == null ? UUID.randomUUID().toString() : idempotencyKey);
        } catch (IllegalArgumentException e) {
            throw new ApiException(ApiError.VALUE_INVALID, IDEMPOTENCY_KEY + ": " + e.getMessage(),
                    Optional.of(IDEMPOTENCY_KEY));
        }
        return new OperatorCall(operationId, ActorRef.of(identity.getPrincipal().getName()));
    }

    /** Whether the request has an empty Idempotency-Key header, which the header parameter reads as none. */
    private static boolean emptyKeySent() {
        RoutingContext current = Arc.container().instance(CurrentVertxRequest.class).get().getCurrent();
        String sent = current == null ? null : current.request().getHeader(IDEMPOTENCY_KEY);
        return sent != null && sent.isBlank();
    }

    private static <T> T read(Supplier<T> work) {
        return QuarkusTransaction.requiringNew().call(work::get);
    }

    private JobExecution existing(JobExecutionId id) {
        return repository.getJobExecution(id).orElseThrow(() -> new RepositoryException(
                RepositoryError.JOB_EXECUTION_NOT_FOUND, "no job execution " + id));
    }

    private static RepositoryException instanceNotFound(JobInstanceId id) {
        return new RepositoryException(RepositoryError.JOB_INSTANCE_NOT_FOUND, "no job instance " + id);
    }

    private RestResponse<ExecutionView> launched(JobExecution execution) {
        ExecutionView view = ExecutionView.of(execution);
        // A header of its own: JAX-RS would make a relative location() absolute with the request's Host.
        return tagged(RestResponse.ResponseBuilder.<ExecutionView> create(RestResponse.Status.ACCEPTED, view)
                .header(HttpHeaders.LOCATION, root + "/executions/" + view.id()), view.version()).build();
    }

    private static RestResponse<ExecutionView> current(JobExecution execution) {
        ExecutionView view = ExecutionView.of(execution);
        return tagged(RestResponse.ResponseBuilder.ok(view), view.version()).build();
    }

    private static <T> RestResponse.ResponseBuilder<T> tagged(RestResponse.ResponseBuilder<T> response, long version) {
        return response.header("ETag", EntityTags.of(version));
    }

    private JsonNode parse(String text, String field) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ApiException(ApiError.VALUE_INVALID, field + " must be a JSON object: "
                    + e.getOriginalMessage(), Optional.of(field));
        }
    }

    private static Instant instant(String text, String field) {
        if (text == null) {
            throw new IllegalArgumentException(field + " must be given, an ISO-8601 instant such as 2026-12-01T00:00:00Z");
        }
        Instant instant;
        try {
            instant = Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + " must be an ISO-8601 instant such as 2026-12-01T00:00:00Z, got '"
                    + text + "'");
        }
        // PostgreSQL's timestamps end in year 294276 (Instant's in year 1000000000): a filter the
        // database cannot compare is the caller's mistake, refused here rather than failing its statement.
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw new IllegalArgumentException(field + " must be between " + EARLIEST + " and " + LATEST + ", got '"
                    + text + "'");
        }
        return instant;
    }

    private static Set<ExecutionStatus> statuses(List<String> names) {
        Set<ExecutionStatus> statuses = EnumSet.noneOf(ExecutionStatus.class);
        for (String name : names == null ? List.<String> of() : names) {
            try {
                statuses.add(ExecutionStatus.valueOf(name.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("status must be one of " + EnumSet.allOf(ExecutionStatus.class)
                        + ", got '" + name + "'");
            }
        }
        return statuses;
    }
}
