package org.acme.orders;

import java.net.URI;
import java.util.List;
import java.util.Optional;

import jakarta.transaction.Transactional;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.RepositoryException;

/** Launches imports and reports how they went. */
@Path("/imports")
public class ImportResource {

    /** What to import: the path of a CSV file with the header {@code id,customer,amount}. */
    public record ImportRequest(String file) {
    }

    /** A launched import: its first attempt, whose id names the import from then on. */
    public record Launched(long executionId) {
    }

    /** One attempt of an import: the first run, or a restart, and why it failed if it did. */
    public record Attempt(long executionId, int attempt, String status, String exitCode, String failure) {
    }

    /** An import: the status of its latest attempt, and every attempt. */
    public record ImportStatus(String status, List<Attempt> attempts) {
    }

    private final JobOperator operator;
    private final JobRepository repository;

    ImportResource(JobOperator operator, JobRepository repository) {
        this.operator = operator;
        this.repository = repository;
    }

    @POST
    public Response launch(ImportRequest request) {
        if (request == null || request.file() == null || request.file().isBlank()) {
            throw new BadRequestException("name the file to import: {\"file\": \"/path/to/orders.csv\"}");
        }
        JobExecutionId id = operator.start("importOrders", JobParameters.of("file", request.file()),
                OperatorCall.by("http"));
        return Response.accepted(new Launched(id.value())).location(URI.create("/imports/" + id.value())).build();
    }

    @GET
    @Path("/{id}")
    @Transactional
    public ImportStatus status(@PathParam("id") long id) {
        JobExecution launched = find(id).orElseThrow(() -> new NotFoundException("no import " + id));
        List<Attempt> attempts = repository.jobExecutions(launched.jobInstanceId()).stream()
                .map(execution -> new Attempt(execution.id().value(), execution.attempt(), execution.status().name(),
                        execution.exitStatus().code(), execution.failure().map(ExecutionFailure::message).orElse(null)))
                .toList();
        return new ImportStatus(attempts.get(attempts.size() - 1).status(), attempts);
    }

    /** Execution ids start at 1: 0 or a negative id names no import, as an unknown one does. */
    private Optional<JobExecution> find(long id) {
        return id > 0 ? repository.getJobExecution(JobExecutionId.of(id)) : Optional.empty();
    }

    /** The same file again while it runs, or after it completed: 409 with the repository's reason. */
    @ServerExceptionMapper
    public RestResponse<String> refused(RepositoryException refusal) {
        return RestResponse.status(Response.Status.CONFLICT, refusal.getMessage()); // starts with its code
    }

    /** A request that names no file, or an import that does not exist: the status and what was wrong. */
    @ServerExceptionMapper
    public RestResponse<String> wrong(WebApplicationException wrong) {
        return RestResponse.status(Response.Status.fromStatusCode(wrong.getResponse().getStatus()), wrong.getMessage());
    }
}
