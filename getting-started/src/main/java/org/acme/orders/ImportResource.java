package org.acme.orders;

import java.net.URI;
import java.util.List;

import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.job.JobOperator;
import io.durablebatch.job.JobParameters;
import io.durablebatch.job.OperatorCall;
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

    /** One attempt of an import: the first run, or a restart. */
    public record Attempt(long executionId, int attempt, String status, String exitCode) {
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
        JobExecutionId id = operator.start("importOrders", JobParameters.of("file", request.file()),
                OperatorCall.by("http"));
        return Response.accepted(new Launched(id.value())).location(URI.create("/imports/" + id.value())).build();
    }

    @GET
    @Path("/{id}")
    @Transactional
    public ImportStatus status(@PathParam("id") long id) {
        JobExecution launched = repository.getJobExecution(JobExecutionId.of(id))
                .orElseThrow(NotFoundException::new);
        List<Attempt> attempts = repository.jobExecutions(launched.jobInstanceId()).stream()
                .map(execution -> new Attempt(execution.id().value(), execution.attempt(), execution.status().name(),
                        execution.exitStatus().code()))
                .toList();
        return new ImportStatus(attempts.get(attempts.size() - 1).status(), attempts);
    }

    /** The same file again while it runs, or after it completed: 409 with the repository's reason. */
    @ServerExceptionMapper
    public RestResponse<String> refused(RepositoryException refusal) {
        return RestResponse.status(Response.Status.CONFLICT, refusal.error() + ": " + refusal.getMessage());
    }
}
