package io.durablebatch.rest.runtime;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.OperationId;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.rest.BatchRoles;
import io.durablebatch.rest.Problem;
import io.quarkus.arc.Arc;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.common.annotation.Blocking;
import io.vertx.ext.web.RoutingContext;

/**
 * A resource of the operator REST API under {@code quarkus.durable-batch.rest.root-path} (default
 * {@code /batch}), one per capability: {@link ReadResource}, {@link AuditResource},
 * {@link ActionResource}, {@link RetentionResource} and {@link ScheduleResource} ({@link #RESOURCES}). None has a
 * {@code @Path} of its own (JAX-RS paths take no configuration): the extension generates, at build
 * time, the subclass of each that Quarkus REST serves, with the configured root as its {@code @Path}
 * and the {@link ProblemMapper} methods as its exception mappers, and tells SmallRye OpenAPI the same
 * root through {@link OpenApiResourcePathConfigSourceFactory}. Every endpoint is blocking (it runs on
 * a worker thread: the repository speaks JDBC) and carries {@code @RolesAllowed} with the role
 * expressions of {@link BatchRoles}. Every refusal is an RFC 9457 problem, mapped by the exception
 * mappers of {@link ProblemResponses} for the API's resources alone, so the application's own error
 * handling stays as it is. The annotations every resource shares (blocking, JSON, the API's tag and
 * the responses any endpoint may give) are declared here once: the extension copies them onto each
 * generated subclass, the class Quarkus REST and SmallRye OpenAPI read them from. (Public: Quarkus
 * REST calls the generated subclasses.)
 */
@Blocking
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.TAG, description = ApiDocs.TAG_DESCRIPTION)
@APIResponse(responseCode = "401", description = ApiDocs.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = ApiDocs.FORBIDDEN)
@APIResponse(responseCode = "503", description = ApiDocs.STORAGE_TRANSIENT, content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public abstract class ApiResource extends ProblemResponses {

    /** Every resource of the API: the extension serves these, and the rules over every endpoint read them. */
    public static final List<Class<? extends ApiResource>> RESOURCES = List.of(ReadResource.class, AuditResource.class,
            ActionResource.class, RetentionResource.class, ScheduleResource.class);

    /** The header whose value becomes the operation id of an action. */
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private final SecurityIdentity identity;

    protected ApiResource(SecurityIdentity identity, ObjectMapper json) {
        super(identity, json);
        this.identity = identity;
    }

    /** A read in a transaction of its own: every statement of the answer sees one snapshot. */
    static <T> T read(Supplier<T> work) {
        return QuarkusTransaction.requiringNew().call(work::get);
    }

    /** The execution as the answer of an action, with its version as the ETag. */
    static RestResponse<ExecutionView> current(JobExecution execution) {
        ExecutionView view = ExecutionView.of(execution);
        return tagged(RestResponse.ResponseBuilder.ok(view), view.version()).build();
    }

    static <T> RestResponse.ResponseBuilder<T> tagged(RestResponse.ResponseBuilder<T> response, long version) {
        return response.header("ETag", EntityTags.of(version));
    }

    /**
     * The caller and operation id of an action: a fresh one without an Idempotency-Key. The actor is
     * the authenticated principal, and the key is the actor's own (another caller's same key is
     * another operation). A key that is present but empty is refused: taken as no key, a retry
     * would be applied twice.
     */
    OperatorCall call(String idempotencyKey) {
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
}
