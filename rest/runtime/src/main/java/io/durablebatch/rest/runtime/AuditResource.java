package io.durablebatch.rest.runtime;

import java.util.Optional;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.rest.BatchRoles;
import io.quarkus.security.identity.SecurityIdentity;

/** The audit trails, newest first, each optionally of one job instance: operator actions, recoveries, retention. */
public class AuditResource extends ApiResource {

    private final JobRepository repository;

    protected AuditResource(JobRepository repository, SecurityIdentity identity, ObjectMapper json) {
        super(identity, json);
        this.repository = repository;
    }

    @GET
    @Path("/audit/operator")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The operator audit, newest first", description = ApiDocs.READ_ROLES
            + " Optionally of one instance. Keyset paged.")
    @APIResponse(responseCode = "200", description = "One page of operator records", content = @Content(schema = @Schema(implementation = PageView.class)))
    public RestResponse<PageView<OperatorRecordView>> operatorAudit(
            @Parameter(description = ApiDocs.INSTANCE) @RestQuery Long instance, @BeanParam PageParameters page,
            UriInfo uri) {
        Optional<JobInstanceId> of = Optional.ofNullable(instance).map(JobInstanceId::of);
        return PageParameters.paged(read(() -> repository.findOperatorRecords(of, page.request())),
                OperatorRecordView::of, uri);
    }

    @GET
    @Path("/audit/recovery")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The recovery audit, newest first", description = ApiDocs.READ_ROLES
            + " Optionally of one instance. Keyset paged.")
    @APIResponse(responseCode = "200", description = "One page of recovery decisions", content = @Content(schema = @Schema(implementation = PageView.class)))
    public RestResponse<PageView<RecoveryView.Decision>> recoveryAudit(
            @Parameter(description = ApiDocs.INSTANCE) @RestQuery Long instance, @BeanParam PageParameters page,
            UriInfo uri) {
        Optional<JobInstanceId> of = Optional.ofNullable(instance).map(JobInstanceId::of);
        return PageParameters.paged(read(() -> repository.findRecoveryDecisions(of, page.request())),
                RecoveryView.Decision::of, uri);
    }

    @GET
    @Path("/audit/retention")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The retention audit (holds and purges), newest first", description = ApiDocs.READ_ROLES
            + " Optionally of one instance. Keyset paged.")
    @APIResponse(responseCode = "200", description = "One page of retention records", content = @Content(schema = @Schema(implementation = PageView.class)))
    public RestResponse<PageView<RetentionOutcomeView>> retentionAudit(
            @Parameter(description = ApiDocs.INSTANCE) @RestQuery Long instance, @BeanParam PageParameters page,
            UriInfo uri) {
        Optional<JobInstanceId> of = Optional.ofNullable(instance).map(JobInstanceId::of);
        return PageParameters.paged(read(() -> repository.findRetentionRecords(of, page.request())),
                RetentionOutcomeView::of, uri);
    }
}
