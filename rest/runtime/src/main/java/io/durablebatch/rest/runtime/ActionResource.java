package io.durablebatch.rest.runtime;

import java.util.Optional;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestResponse;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.rest.BatchRoles;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * The operator's actions on executions: start, restart, stop, abandon, recover, through
 * {@link ExecutionActions}. Each is idempotent with {@code Idempotency-Key}; those on an existing
 * execution take its version as {@code If-Match} and answer it as the ETag.
 */
public class ActionResource extends ApiResource {

    private final ExecutionActions executions;
    private final String root;

    protected ActionResource(ExecutionActions executions, SecurityIdentity identity, ObjectMapper json,
            DurableBatchRestBuildTimeConfig config) {
        super(identity, json);
        this.executions = executions;
        this.root = ApiPath.of(config);
    }

    @POST
    @Path("/jobs/{job}/executions")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Start a job", description = ApiDocs.OPERATE_ROLES + " Launches the instance of these "
            + "identifying parameters: a first attempt, or a restart of its STOPPED or FAILED latest one. Idempotent "
            + "with Idempotency-Key.")
    @APIResponse(responseCode = "202", description = "The attempt is recorded and runs", content = @Content(schema = @Schema(implementation = ExecutionView.class)))
    @APIResponse(responseCode = "404", description = "JOB_NOT_DEFINED")
    @APIResponse(responseCode = "409", description = "EXECUTION_ACTIVE, INSTANCE_COMPLETE, INSTANCE_ABANDONED, EXECUTION_UNKNOWN, DEFINITION_INCOMPATIBLE, OPERATION_CONFLICT")
    @APIResponse(responseCode = "422", description = "VALUE_INVALID")
    public RestResponse<ExecutionView> start(@RestPath String job,
            @Parameter(description = ApiDocs.IDEMPOTENCY_KEY) @RestHeader(IDEMPOTENCY_KEY) String key,
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
    @Operation(summary = "Restart a STOPPED or FAILED execution", description = ApiDocs.OPERATE_ROLES + " Its "
            + "unfinished steps resume from their checkpoints; the body may replace its non-identifying parameters.")
    @APIResponse(responseCode = "202", description = "The new attempt", content = @Content(schema = @Schema(implementation = ExecutionView.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND, JOB_NOT_DEFINED")
    @APIResponse(responseCode = "409", description = "EXECUTION_SUPERSEDED, EXECUTION_ACTIVE, INSTANCE_COMPLETE, INSTANCE_ABANDONED, OPERATION_CONFLICT")
    @APIResponse(responseCode = "412", description = "VERSION_CONFLICT: If-Match is not the execution's version")
    public RestResponse<ExecutionView> restart(@RestPath long id,
            @Parameter(description = ApiDocs.IDEMPOTENCY_KEY) @RestHeader(IDEMPOTENCY_KEY) String key,
            @Parameter(description = ApiDocs.IF_MATCH) @RestHeader(EntityTags.IF_MATCH) String ifMatch,
            RestartRequest request) {
        Optional<ExecutionParameters> nonIdentifying = Optional.ofNullable(request).map(RestartRequest::nonIdentifying)
                .filter(node -> !node.isNull())
                .map(node -> new ExecutionParameters(ParameterJson.read(node, "nonIdentifying")));
        return launched(executions.restart(JobExecutionId.of(id), nonIdentifying, Optional.ofNullable(ifMatch),
                call(key)));
    }

    @POST
    @Path("/executions/{id}/stop")
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Ask a running execution to stop", description = ApiDocs.OPERATE_ROLES + " It stops at its "
            + "next chunk boundary and ends STOPPED, restartable.")
    @APIResponse(responseCode = "200", description = "The execution, stop requested", content = @Content(schema = @Schema(implementation = ExecutionView.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "EXECUTION_NOT_ACTIVE, ILLEGAL_TRANSITION, STOP_ALREADY_REQUESTED, OWNER_MISMATCH, OPERATION_CONFLICT")
    @APIResponse(responseCode = "412", description = "VERSION_CONFLICT")
    public RestResponse<ExecutionView> stop(@RestPath long id,
            @Parameter(description = ApiDocs.IDEMPOTENCY_KEY) @RestHeader(IDEMPOTENCY_KEY) String key,
            @Parameter(description = ApiDocs.IF_MATCH) @RestHeader(EntityTags.IF_MATCH) String ifMatch) {
        return current(executions.stop(JobExecutionId.of(id), Optional.ofNullable(ifMatch), call(key)));
    }

    @POST
    @Path("/executions/{id}/abandon")
    @RolesAllowed(BatchRoles.ADMIN)
    @Operation(summary = "Abandon a STOPPED or FAILED execution for good", description = ApiDocs.ADMIN_ROLES
            + " Its instance can never run again.")
    @APIResponse(responseCode = "200", description = "The execution, ABANDONED", content = @Content(schema = @Schema(implementation = ExecutionView.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "ILLEGAL_TRANSITION, EXECUTION_SUPERSEDED, OPERATION_CONFLICT")
    @APIResponse(responseCode = "412", description = "VERSION_CONFLICT")
    public RestResponse<ExecutionView> abandon(@RestPath long id,
            @Parameter(description = ApiDocs.IDEMPOTENCY_KEY) @RestHeader(IDEMPOTENCY_KEY) String key,
            @Parameter(description = ApiDocs.IF_MATCH) @RestHeader(EntityTags.IF_MATCH) String ifMatch) {
        return current(executions.abandon(JobExecutionId.of(id), Optional.ofNullable(ifMatch), call(key)));
    }

    @POST
    @Path("/executions/{id}/recover")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(BatchRoles.ADMIN)
    @Operation(summary = "Recover an orphaned or UNKNOWN execution", description = ApiDocs.ADMIN_ROLES + " Resolves it "
            + "FAILED (restartable) or ABANDONED. If-Match (required) is the version the decision is based on.")
    @APIResponse(responseCode = "200", description = "The recorded decision and the execution", content = @Content(schema = @Schema(implementation = RecoveryView.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "EXECUTION_LEASE_LIVE, EXECUTION_NOT_RECOVERABLE, ALREADY_RECOVERED, OPERATION_CONFLICT")
    @APIResponse(responseCode = "412", description = "VERSION_CONFLICT")
    @APIResponse(responseCode = "428", description = "PRECONDITION_REQUIRED: no If-Match")
    public RecoveryView recover(@RestPath long id,
            @Parameter(description = ApiDocs.IDEMPOTENCY_KEY) @RestHeader(IDEMPOTENCY_KEY) String key,
            @Parameter(description = ApiDocs.IF_MATCH) @RestHeader(EntityTags.IF_MATCH) String ifMatch,
            RecoverRequest request) {
        if (request == null) {
            throw new ApiException(ApiError.VALUE_INVALID, "a recovery needs a body with resolution and reason",
                    Optional.of("resolution"));
        }
        if (request.resolution() == null) {
            throw new IllegalArgumentException("resolution must be FAILED or ABANDONED");
        }
        return executions.recover(JobExecutionId.of(id), Optional.ofNullable(ifMatch), request, call(key));
    }

    private RestResponse<ExecutionView> launched(JobExecution execution) {
        ExecutionView view = ExecutionView.of(execution);
        // A header of its own: JAX-RS would make a relative location() absolute with the request's Host.
        return tagged(RestResponse.ResponseBuilder.<ExecutionView> create(RestResponse.Status.ACCEPTED, view)
                .header(HttpHeaders.LOCATION, root + "/executions/" + view.id()), view.version()).build();
    }
}
