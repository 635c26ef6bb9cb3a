package io.durablebatch.demo;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.rest.BatchRoles;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * The demo's operator API over HTTP: launch, follow, stop, restart, recover and abandon jobs through
 * the kernel's {@link JobOperator}. Secured like the operator REST API: the same three roles
 * ({@link BatchRoles}, viewer &sub; operator &sub; admin), and the audit's actor is the authenticated
 * caller, never a name the request gives. A request may name its operation id (the idempotency key).
 */
@Path("/jobs")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class JobsResource {

    /** A launch: identifying parameters, and optionally the idempotency key. */
    public record LaunchRequest(Map<String, Object> parameters, String operationId) {
    }

    /** A recovery: the version the caller saw, FAILED or ABANDONED, and why. */
    public record RecoverRequest(long observedVersion, RecoveryResolution resolution, String reason, String operationId) {
    }

    /** An operator request without a body of its own. */
    public record CallRequest(String operationId) {
    }

    public record Launched(long executionId) {
    }

    public record StepView(long id, String name, String status, String exitCode, Optional<String> failure, long read,
            long written, long skipped, long commits, long rollbacks) {

        static StepView of(StepExecution step) {
            return new StepView(step.id().value(), step.stepName().value(), step.status().name(),
                    step.exitStatus().code(), step.failure().map(f -> f.type() + ": " + f.message()),
                    step.counters().readCount(), step.counters().writeCount(), step.counters().skipCount(),
                    step.counters().commitCount(), step.counters().rollbackCount());
        }
    }

    public record ExecutionView(long id, long instanceId, int attempt, String status, String exitCode,
            Optional<String> failure, long version, List<StepView> steps) {

        static ExecutionView of(JobExecution execution, List<StepExecution> steps) {
            return new ExecutionView(execution.id().value(), execution.jobInstanceId().value(), execution.attempt(),
                    execution.status().name(), execution.exitStatus().code(),
                    execution.failure().map(f -> f.type() + ": " + f.message()), execution.version().value(),
                    steps.stream().map(StepView::of).toList());
        }
    }

    private final JobOperator operator;
    private final JobRepository repository;
    private final SecurityIdentity caller;

    JobsResource(JobOperator operator, JobRepository repository, SecurityIdentity caller) {
        this.operator = operator;
        this.repository = repository;
        this.caller = caller;
    }

    @POST
    @Path("/{job}/start")
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    public Response start(@PathParam("job") String job, LaunchRequest request) {
        JobExecutionId id = operator.start(job, parameters(request), call(request == null ? null : request.operationId()));
        return Response.accepted(new Launched(id.value())).build();
    }

    @POST
    @Path("/{job}/run")
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    public ExecutionView run(@PathParam("job") String job, LaunchRequest request) {
        return view(operator.runAndWait(job, parameters(request), call(request == null ? null : request.operationId()))
                .id());
    }

    @GET
    @Path("/executions/{id}")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    public ExecutionView execution(@PathParam("id") long id) {
        return view(JobExecutionId.of(id));
    }

    @POST
    @Path("/executions/{id}/stop")
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    public Response stop(@PathParam("id") long id, CallRequest request) {
        operator.stop(JobExecutionId.of(id), call(request));
        return Response.accepted().build();
    }

    @POST
    @Path("/executions/{id}/restart")
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    public Response restart(@PathParam("id") long id, CallRequest request) {
        return Response.accepted(new Launched(operator.restart(JobExecutionId.of(id), call(request)).value())).build();
    }

    @POST
    @Path("/executions/{id}/abandon")
    @RolesAllowed(BatchRoles.ADMIN)
    public ExecutionView abandon(@PathParam("id") long id, CallRequest request) {
        return view(operator.abandon(JobExecutionId.of(id), call(request)).id());
    }

    @POST
    @Path("/executions/{id}/recover")
    @RolesAllowed(BatchRoles.ADMIN)
    public ExecutionView recover(@PathParam("id") long id, RecoverRequest request) {
        operator.recover(JobExecutionId.of(id), ExecutionVersion.of(request.observedVersion()), request.resolution(),
                ReasonCode.of(request.reason() == null ? "OPERATOR_REQUEST" : request.reason()),
                call(request.operationId()));
        return view(JobExecutionId.of(id));
    }

    private ExecutionView view(JobExecutionId id) {
        return QuarkusTransaction.requiringNew().call(() -> ExecutionView.of(repository.getJobExecution(id)
                .orElseThrow(() -> new IllegalArgumentException("job execution " + id + " does not exist")),
                repository.stepExecutions(id)));
    }

    private static JobParameters parameters(LaunchRequest request) {
        return request == null || request.parameters() == null ? JobParameters.none()
                : JobParameters.of(request.parameters());
    }

    private OperatorCall call(CallRequest request) {
        return call(request == null ? null : request.operationId());
    }

    /** The audit names the authenticated caller: a name in the body would let anyone act as anyone. */
    private OperatorCall call(String operationId) {
        String who = caller.getPrincipal().getName();
        return operationId == null ? OperatorCall.by(who) : OperatorCall.of(operationId, who);
    }

    /** A request the kernel refuses in its current state (e.g. stopping an execution that runs elsewhere). */
    @Provider
    public static class StateMapper implements ExceptionMapper<IllegalStateException> {
        @Override
        public Response toResponse(IllegalStateException e) {
            return Response.status(Response.Status.CONFLICT).entity(Map.of("message", String.valueOf(e.getMessage())))
                    .build();
        }
    }
}
