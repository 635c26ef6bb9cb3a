package io.durablebatch.rest.runtime;

import java.time.temporal.Temporal;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;

import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.rest.Problem;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticator;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * The exception mappers of the operator REST API: every exception an endpoint throws is answered as
 * a problem document ({@link Problems}), the unexpected ones as a 500 that names only the correlation
 * id of the log entry. Every {@link ApiResource} extends this class; the extension overrides each
 * {@link ProblemMapper} method in the resources it generates, so these mappers apply to the API's
 * requests only. (Public: Quarkus REST calls them from generated classes.)
 */
public abstract class ProblemResponses {

    private final SecurityIdentity identity;
    private final ObjectMapper json;

    protected ProblemResponses(SecurityIdentity identity, ObjectMapper json) {
        this.identity = identity;
        this.json = json;
    }

    @ProblemMapper
    public Response repositoryRefusal(RepositoryException e, UriInfo uri) {
        Response.ResponseBuilder response = problem(ProblemStatus.of(e.error()), e.error().name(), e.getMessage(),
                Optional.empty(), uri, Optional.empty(), e);
        if (e.isTransient()) {
            response.header("Retry-After", "1");
        }
        return response.build();
    }

    @ProblemMapper
    public Response apiRefusal(ApiException e, UriInfo uri) {
        return problem(e.error.status, e.error.name(), e.getMessage(), e.field, uri, Optional.empty(), e).build();
    }

    @ProblemMapper
    public Response staleVersion(StaleVersionException e, UriInfo uri) {
        return problem(412, RepositoryError.VERSION_CONFLICT.name(), e.getMessage(), Optional.of(EntityTags.IF_MATCH),
                uri, Optional.of(e.currentVersion), e).header("ETag", EntityTags.of(e.currentVersion)).build();
    }

    /** A value record refused a value: its message starts with the field's name (io.durablebatch.Checks). */
    @ProblemMapper
    public Response badValue(IllegalArgumentException e, UriInfo uri) {
        String message = String.valueOf(e.getMessage());
        int space = message.indexOf(' ');
        Optional<String> field = space > 0 && !Problems.showsInternals(message) ? Optional.of(message.substring(0, space))
                : Optional.empty();
        return problem(422, ApiError.VALUE_INVALID.name(), message, field, uri, Optional.empty(), e).build();
    }

    /**
     * A body that is not JSON (400), or JSON of the wrong shape (422, naming the field and the JSON
     * it expects there, in JSON's words: Jackson's own message names Java types).
     */
    @ProblemMapper
    public Response unreadableBody(JsonProcessingException e, UriInfo uri) {
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            String field = mapping.getPath().stream().map(ref -> ref.getFieldName() != null ? ref.getFieldName()
                    : "[" + ref.getIndex() + "]").reduce((a, b) -> b.startsWith("[") ? a + b : a + "." + b).orElse("");
            return problem(422, ApiError.VALUE_INVALID.name(), field + ": " + expected(mapping), Optional.of(field), uri,
                    Optional.empty(), e).build();
        }
        String where = e.getLocation() == null ? ""
                : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
        return problem(400, ApiError.REQUEST_MALFORMED.name(), "the body is not valid JSON" + where, Optional.empty(), uri,
                Optional.empty(), e).build();
    }

    /**
     * 401 whatever the application's mechanisms: with one, its challenge (e.g. {@code WWW-Authenticate:
     * Basic}) is added; with none at all, Quarkus would answer 403, yet the caller is not known, not
     * refused: the API is closed until the application configures authentication.
     */
    @ProblemMapper
    public Uni<Response> unauthenticated(UnauthorizedException e, RoutingContext routing, UriInfo uri) {
        HttpAuthenticator authenticator = routing.get(HttpAuthenticator.class.getName());
        Uni<ChallengeData> challenge = authenticator == null ? Uni.createFrom().nullItem()
                : authenticator.getChallenge(routing).onFailure().recoverWithNull();
        return challenge.map(data -> {
            Response.ResponseBuilder response = problem(401, ApiError.UNAUTHENTICATED.name(),
                    "this endpoint needs an authenticated caller with one of its roles", Optional.empty(), uri,
                    Optional.empty(), e);
            if (data != null && data.status == 401) {
                data.getHeaders().forEach((name, value) -> response.header(name.toString(), value));
            }
            return response.build();
        });
    }

    @ProblemMapper
    public Response forbidden(ForbiddenException e, UriInfo uri) {
        return problem(403, ApiError.FORBIDDEN.name(), "the caller " + identity.getPrincipal().getName()
                + " lacks the role this endpoint needs", Optional.empty(), uri, Optional.empty(), e).build();
    }

    @ProblemMapper
    public Response webError(WebApplicationException e, UriInfo uri) {
        int status = e.getResponse().getStatus();
        if (status == 401 || status == 403) {
            return e.getResponse();
        }
        Response.ResponseBuilder response = problem(status, ApiError.ofStatus(status).name(), e.getMessage(),
                Optional.empty(), uri, Optional.empty(), e);
        e.getResponse().getHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Type")) {
                values.forEach(value -> response.header(name, value));
            }
        });
        return response.build();
    }

    /** Anything else is the server's failure: 500, the cause in the log under the problem's correlation id. */
    @ProblemMapper
    public Response unexpected(Throwable e, UriInfo uri) {
        return problem(500, ApiError.UNEXPECTED.name(), String.valueOf(e), Optional.empty(), uri, Optional.empty(), e)
                .build();
    }

    private Response.ResponseBuilder problem(int status, String code, String detail, Optional<String> field, UriInfo uri,
            Optional<Long> currentVersion, Throwable cause) {
        Problem problem = Problems.of(status, code, detail, field, uri.getPath(), currentVersion, cause);
        return Response.status(status).type(Problem.MEDIA_TYPE).entity(Problems.json(json, problem));
    }

    /** What a field's JSON should have been, in JSON's words. */
    private static String expected(JsonMappingException e) {
        if (e instanceof ValueInstantiationException && e.getCause() instanceof IllegalArgumentException refused
                && refused.getMessage() != null) {
            return refused.getMessage();
        }
        Class<?> type = e instanceof MismatchedInputException mismatch ? mismatch.getTargetType() : null;
        return "must be " + jsonOf(type);
    }

    private static String jsonOf(Class<?> type) {
        if (type == null) {
            return "a value of another type";
        } else if (type.isEnum()) {
            return "one of " + Arrays.toString(type.getEnumConstants());
        } else if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        } else if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class) {
            return "an integer";
        } else if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        } else if (CharSequence.class.isAssignableFrom(type)) {
            return "a string";
        } else if (Temporal.class.isAssignableFrom(type)) {
            return "an ISO-8601 instant, e.g. 2026-12-01T00:00:00Z";
        } else if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        } else if (Map.class.isAssignableFrom(type) || type == Object.class) {
            return "a JSON value";
        }
        return "an object";
    }
}
