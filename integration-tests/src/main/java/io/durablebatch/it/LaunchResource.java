package io.durablebatch.it;

import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.rest.BatchRoles;

/**
 * Launches job instances through the repository, as an application's own launcher would; behind the
 * roles of the operator REST API ({@link BatchRoles}): launching is an operator's, reading a viewer's.
 */
@Path("/launches")
public class LaunchResource {

    /** A launch request: the job and its identifying parameters. */
    public record LaunchRequest(String job, Map<String, Object> parameters) {
    }

    /** What a launch created. */
    public record LaunchResponse(long instanceId, boolean instanceCreated, long executionId, int attempt) {
    }

    private final JobRepository repository;

    LaunchResource(JobRepository repository) {
        this.repository = repository;
    }

    @POST
    @Transactional
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    public LaunchResponse launch(LaunchRequest request) {
        var selection = repository.selectOrCreateJobInstance(
                JobInstanceKey.of(JobName.of(request.job()), request.parameters() == null ? Map.of() : request.parameters()));
        JobExecution execution = repository.createJobExecution(JobExecutionRequest.of(selection.instance().id()));
        return new LaunchResponse(selection.instance().id().value(), selection.created(), execution.id().value(),
                execution.attempt());
    }

    @GET
    @Path("/instances/{id}/executions")
    @Transactional
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    public List<JobExecution> executions(@PathParam("id") long instanceId) {
        return repository.jobExecutions(JobInstanceId.of(instanceId));
    }

    /** Maps refusals to HTTP: a conflict carries the repository's error code. */
    @Provider
    public static class RefusalMapper implements ExceptionMapper<RepositoryException> {
        @Override
        public Response toResponse(RepositoryException refusal) {
            Response.Status status = switch (refusal.error()) {
                case JOB_INSTANCE_NOT_FOUND, JOB_EXECUTION_NOT_FOUND, STEP_EXECUTION_NOT_FOUND -> Response.Status.NOT_FOUND;
                case STORAGE_FAILURE, STORAGE_TRANSIENT, TRANSACTION_REQUIRED -> Response.Status.SERVICE_UNAVAILABLE;
                default -> Response.Status.CONFLICT;
            };
            return Response.status(status).entity(Map.of("error", refusal.error().name(), "message", refusal.getMessage()))
                    .build();
        }
    }

    /** Maps bad input to 400 with the message that names the field. */
    @Provider
    public static class BadInputMapper implements ExceptionMapper<IllegalArgumentException> {
        @Override
        public Response toResponse(IllegalArgumentException e) {
            return Response.status(Response.Status.BAD_REQUEST).entity(Map.of("message", e.getMessage())).build();
        }
    }

}
