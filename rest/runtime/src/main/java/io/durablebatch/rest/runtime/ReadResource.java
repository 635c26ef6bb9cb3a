package io.durablebatch.rest.runtime;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.rest.BatchRoles;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * The reads of the API: the job definitions, their instances and executions, as listings (keyset
 * paged, one statement per page) and as details. Each read is one transaction.
 */
public class ReadResource extends ApiResource {

    private final JobRepository repository;
    private final JobOperator jobs;
    private final ObjectMapper json;

    protected ReadResource(JobRepository repository, JobOperator jobs, SecurityIdentity identity, ObjectMapper json) {
        super(identity, json);
        this.repository = repository;
        this.jobs = jobs;
        this.json = json;
    }

    @GET
    @Path("/jobs")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The jobs this application defines", description = ApiDocs.READ_ROLES + " Name, revision, "
            + "plan fingerprint, nodes and transitions of each, by name.")
    @APIResponse(responseCode = "200", description = "The job definitions", content = @Content(schema = @Schema(implementation = JobDefinitionView.class, type = SchemaType.ARRAY)))
    public List<JobDefinitionView> jobs() {
        return jobs.jobDefinitions().stream().map(JobDefinitionView::of)
                .sorted(Comparator.comparing(JobDefinitionView::name)).toList();
    }

    @GET
    @Path("/jobs/{job}")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "One job definition", description = ApiDocs.READ_ROLES)
    @APIResponse(responseCode = "200", description = "The job definition", content = @Content(schema = @Schema(implementation = JobDefinitionView.class)))
    @APIResponse(responseCode = "404", description = "JOB_NOT_DEFINED")
    public JobDefinitionView job(@RestPath String job) {
        return jobs.jobDefinition(job).map(JobDefinitionView::of).orElseThrow(() -> new RepositoryException(
                RepositoryError.JOB_NOT_DEFINED, "no job named '" + job + "' is defined in this application"));
    }

    @GET
    @Path("/jobs/{job}/instances")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The instances of a job, newest first", description = ApiDocs.READ_ROLES + " Keyset paged: pass "
            + "a page's next as cursor.")
    @APIResponse(responseCode = "200", description = "One page of instances", content = @Content(schema = @Schema(implementation = PageView.class)))
    @APIResponse(responseCode = "422", description = "VALUE_INVALID (page.size, page.after)")
    public RestResponse<PageView<InstanceView>> instances(@RestPath String job, @BeanParam PageParameters page,
            UriInfo uri) {
        JobName name = JobName.of(job);
        return PageParameters.paged(read(() -> repository.findJobInstances(name, page.request())), InstanceView::of, uri);
    }

    @GET
    @Path("/jobs/{job}/instance")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The instance of a job for identifying parameters", description = ApiDocs.READ_ROLES
            + " parameters is a JSON object of typed values, as a launch takes them.")
    @APIResponse(responseCode = "200", description = "The instance", content = @Content(schema = @Schema(implementation = InstanceView.class)))
    @APIResponse(responseCode = "404", description = "JOB_INSTANCE_NOT_FOUND")
    @APIResponse(responseCode = "422", description = "VALUE_INVALID")
    public InstanceView instanceByParameters(@RestPath String job,
            @Parameter(description = "identifying parameters as a JSON object, e.g. {\"day\":{\"date\":\"2026-12-01\"}}") @RestQuery String parameters) {
        JobInstanceKey key = JobInstanceKey.of(JobName.of(job), ParameterJson.read(parse(parameters, "parameters"),
                "parameters"));
        return read(() -> repository.findJobInstance(key).map(InstanceView::of).orElseThrow(
                () -> new RepositoryException(RepositoryError.JOB_INSTANCE_NOT_FOUND, "no instance of job " + job
                        + " has these identifying parameters")));
    }

    @GET
    @Path("/instances/{id}")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "One job instance with its executions and hold", description = ApiDocs.READ_ROLES)
    @APIResponse(responseCode = "200", description = "The instance", content = @Content(schema = @Schema(implementation = InstanceDetail.class)))
    @APIResponse(responseCode = "404", description = "JOB_INSTANCE_NOT_FOUND")
    public InstanceDetail instance(@RestPath long id) {
        JobInstanceId instanceId = JobInstanceId.of(id);
        return read(() -> new InstanceDetail(
                InstanceView.of(Existing.instance(repository, instanceId)),
                repository.jobExecutions(instanceId).stream().map(ExecutionView::of).toList(),
                repository.jobInstanceHold(instanceId).map(HoldView::of)));
    }

    @GET
    @Path("/executions")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Executions, newest first, filtered", description = ApiDocs.READ_ROLES + " Every filter is "
            + "optional and all given ones must hold. Keyset paged (one statement per page): pass a page's next as cursor.")
    @APIResponse(responseCode = "200", description = "One page of executions", content = @Content(schema = @Schema(implementation = PageView.class)))
    @APIResponse(responseCode = "422", description = "VALUE_INVALID (a filter, page.size, page.after)")
    public RestResponse<PageView<ExecutionView>> executions(@BeanParam ExecutionFilters filters,
            @BeanParam PageParameters page, UriInfo uri) {
        return PageParameters.paged(read(() -> repository.findJobExecutions(filters.query(), page.request())),
                ExecutionView::of, uri);
    }

    @GET
    @Path("/executions/{id}")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "One execution with its steps and flow decisions", description = ApiDocs.READ_ROLES
            + " The ETag is the execution's version.")
    @APIResponse(responseCode = "200", description = "The execution", content = @Content(schema = @Schema(implementation = ExecutionDetail.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND")
    public RestResponse<ExecutionDetail> execution(@RestPath long id) {
        JobExecutionId executionId = JobExecutionId.of(id);
        ExecutionDetail detail = read(() -> {
            JobExecution execution = Existing.execution(repository, executionId);
            return new ExecutionDetail(ExecutionView.of(execution),
                    repository.stepExecutions(executionId).stream().map(StepView::of).toList(),
                    repository.flowDecisions(executionId).stream().map(FlowDecisionView::of).toList(),
                    OwnershipView.of(repository.executionOwnership(executionId).orElseThrow()));
        });
        return tagged(RestResponse.ResponseBuilder.ok(detail), detail.execution().version()).build();
    }

    @GET
    @Path("/executions/{id}/steps/{stepId}/partitions")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The partitions of a partitioned step, in plan order", description = ApiDocs.READ_ROLES
            + " Keyset paged.")
    @APIResponse(responseCode = "200", description = "One page of partitions", content = @Content(schema = @Schema(implementation = PageView.class)))
    @APIResponse(responseCode = "404", description = "STEP_EXECUTION_NOT_FOUND (in this execution)")
    public RestResponse<PageView<PartitionView>> partitions(@RestPath long id, @RestPath long stepId,
            @BeanParam PageParameters page, UriInfo uri) {
        StepExecutionId step = StepExecutionId.of(stepId);
        return PageParameters.paged(read(() -> {
            repository.getStepExecution(step).filter(s -> s.jobExecutionId().value() == id).orElseThrow(
                    () -> new RepositoryException(RepositoryError.STEP_EXECUTION_NOT_FOUND, "job execution " + id
                            + " has no step execution " + stepId));
            return repository.stepPartitions(step, page.request());
        }), PartitionView::of, uri);
    }

    @GET
    @Path("/executions/{id}/recovery")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The recovery decision of an execution", description = ApiDocs.READ_ROLES)
    @APIResponse(responseCode = "200", description = "The recorded decision", content = @Content(schema = @Schema(implementation = RecoveryView.Decision.class)))
    @APIResponse(responseCode = "404", description = "JOB_EXECUTION_NOT_FOUND or NOT_FOUND (never recovered)")
    public RecoveryView.Decision recovery(@RestPath long id) {
        JobExecutionId executionId = JobExecutionId.of(id);
        return read(() -> {
            Existing.execution(repository, executionId);
            return repository.recoveryDecision(executionId).map(RecoveryView.Decision::of)
                    .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "job execution " + id
                            + " was never recovered", Optional.empty()));
        });
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
}
