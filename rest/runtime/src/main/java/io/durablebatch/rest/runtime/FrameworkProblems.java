package io.durablebatch.rest.runtime;

import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.rest.Problem;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.quarkus.security.AuthenticationException;
import io.quarkus.security.AuthenticationRedirectException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Problem documents for what the frameworks answer on the API's paths before an endpoint runs, with
 * empty bodies or HTML otherwise: a wrong password (Vert.x HTTP's authentication), a body over
 * {@code quarkus.http.limits.max-body-size}, a path under the API's root that names no endpoint, and
 * Quarkus REST's own 404, 405, 406 and 415. Only requests under {@code quarkus.durable-batch.rest.root-path}
 * are touched: the application's other paths are answered as before.
 */
@Singleton
public class FrameworkProblems {

    /** Quarkus' default of {@code quarkus.http.limits.max-body-size}. */
    private static final String DEFAULT_MAX_BODY_SIZE = "10240K";

    private final ObjectMapper json;
    private final String root;
    private final String belowHttpRoot;
    private final Optional<Long> maxBodySize;

    FrameworkProblems(ObjectMapper json, DurableBatchRestBuildTimeConfig config) {
        this.json = json;
        this.maxBodySize = ConfigProvider.getConfig().getOptionalValue("quarkus.http.limits.max-body-size", String.class)
                .or(() -> Optional.of(DEFAULT_MAX_BODY_SIZE))
                .map(size -> new MemorySizeConverter().convert(size).asLongValue());
        this.root = config.rootPath();
        this.belowHttpRoot = ApiPath.belowHttpRoot(config);
    }

    /**
     * First, a failure handler for the failures of the HTTP layer on the API's paths (a failure
     * handler is looked for from the first route on); last, a route that answers a 404 problem for a
     * path under the API's root no endpoint took.
     */
    void routes(@Observes Router router) {
        router.route(belowHttpRoot + "/*").order(Integer.MIN_VALUE).failureHandler(this::failed);
        // before Quarkus' own check of the declared length, which answers 413 with no body
        router.route(belowHttpRoot + "/*").order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1).handler(this::bodyLimit);
        router.route(belowHttpRoot + "/*").order(Integer.MAX_VALUE - 1).handler(routing -> answer(routing, 404));
    }

    /** A body whose declared length is over {@code quarkus.http.limits.max-body-size}: 413, before it is read. */
    private void bodyLimit(RoutingContext routing) {
        String length = routing.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (maxBodySize.isPresent() && length != null) {
            try {
                if (Long.parseLong(length.trim()) > maxBodySize.get()) {
                    // the body is not read: the connection cannot carry another request
                    routing.response().putHeader(HttpHeaders.CONNECTION, "close")
                            .endHandler(ended -> routing.request().connection().close());
                    answer(routing, 413);
                    return;
                }
            } catch (NumberFormatException e) {
                // not a length: the HTTP layer refuses it by itself
            }
        }
        routing.next();
    }

    private void failed(RoutingContext routing) {
        if (routing.response().ended() || routing.response().headWritten()) {
            routing.next();
            return;
        }
        if (causedBy(routing.failure(), AuthenticationRedirectException.class)) {
            routing.next(); // a mechanism's redirect (e.g. OIDC's code flow) is no error
        } else if (causedBy(routing.failure(), AuthenticationException.class)
                || causedBy(routing.failure(), UnauthorizedException.class)) {
            answer(routing, 401);
        } else if (causedBy(routing.failure(), ForbiddenException.class)) {
            answer(routing, 403);
        } else if (routing.statusCode() >= 400 && routing.statusCode() < 500) {
            answer(routing, routing.statusCode());
        } else {
            Problem problem = Problems.of(500, ApiError.UNEXPECTED.name(), String.valueOf(routing.failure()),
                    Optional.empty(), routing.normalizedPath(), Optional.empty(), routing.failure());
            write(routing, problem);
        }
    }

    private static boolean causedBy(Throwable failure, Class<?> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    private void answer(RoutingContext routing, int status) {
        write(routing, Problems.of(status, ApiError.ofStatus(status).name(), detail(status, routing.request().method()
                .name(), routing.request().getHeader(HttpHeaders.CONTENT_TYPE)), Optional.empty(), routing.normalizedPath(),
                Optional.empty(), routing.failure()));
    }

    private void write(RoutingContext routing, Problem problem) {
        // the status and headers set so far stay, e.g. the WWW-Authenticate of the challenge
        routing.response().setStatusCode(problem.status()).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .end(Problems.json(json, problem));
    }

    /**
     * Quarkus REST's own refusals (no endpoint at the path, another method, an Accept or a
     * Content-Type it cannot serve) have no body: on the API's paths they get the problem of their
     * status, their headers (e.g. {@code Allow}) kept.
     */
    @ServerResponseFilter
    public void problemOfAnEmptyRefusal(ContainerRequestContext request, ContainerResponseContext response) {
        int status = response.getStatus();
        String path = request.getUriInfo().getPath();
        boolean problem = response.getMediaType() != null
                && Problem.MEDIA_TYPE.equals(response.getMediaType().getType() + "/" + response.getMediaType().getSubtype());
        if (status < 400 || problem || !(path.equals(root) || path.startsWith(root + "/"))) {
            return;
        }
        Problem refusal = Problems.of(status, ApiError.ofStatus(status).name(), detail(status, request.getMethod(),
                request.getHeaderString(HttpHeaders.CONTENT_TYPE.toString())), Optional.empty(), path, Optional.empty(),
                null);
        response.setEntity(Problems.json(json, refusal), null, MediaType.valueOf(Problem.MEDIA_TYPE));
    }

    private static String detail(int status, String method, String contentType) {
        return switch (status) {
            case 401 -> "this endpoint needs an authenticated caller with one of its roles: the credentials were refused";
            case 403 -> "the caller lacks the permission this path needs";
            case 404 -> "no endpoint of the API is at this path";
            case 405 -> "this path takes no " + method + " request";
            case 406 -> "this endpoint answers application/json (and problems as application/problem+json): "
                    + "the Accept header allows neither";
            case 413 -> "the body is larger than this server accepts (quarkus.http.limits.max-body-size)";
            case 415 -> "this endpoint reads an application/json body, not " + (contentType == null ? "a body without "
                    + "Content-Type" : "'" + contentType + "'");
            default -> "the request was refused with HTTP status " + status;
        };
    }
}
