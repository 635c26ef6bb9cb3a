package io.durablebatch.rest.runtime;

import java.net.URI;
import java.util.function.Function;

import jakarta.ws.rs.core.UriBuilder;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageCursor;
import io.durablebatch.repository.PageRequest;

/**
 * The keyset paging of every listing ({@code @BeanParam}): {@code cursor}, the {@code next} of the
 * previous page, and {@code size}. (Public: Quarkus REST injects it from generated code.)
 */
public class PageParameters {

    private static final int DEFAULT_SIZE = 50;

    @Parameter(description = ApiDocs.CURSOR)
    @RestQuery
    String cursor;

    @Parameter(description = ApiDocs.SIZE)
    @RestQuery
    Integer size;

    /** The page asked for: after the cursor, of the size (default {@value #DEFAULT_SIZE}). */
    PageRequest request() {
        int items = size == null ? DEFAULT_SIZE : size;
        return cursor == null ? PageRequest.first(items) : PageRequest.after(PageCursor.of(cursor), items);
    }

    /**
     * A page, with the link of the next one (this request with that cursor) in a Link header: a
     * relative reference (path and query), never built from the request's {@code Host}.
     */
    static <S, T> RestResponse<PageView<T>> paged(Page<S> page, Function<S, T> view, UriInfo uri) {
        RestResponse.ResponseBuilder<PageView<T>> response = RestResponse.ResponseBuilder.ok(PageView.of(page, view));
        URI request = uri.getRequestUri();
        String relative = request.getRawPath() + (request.getRawQuery() == null ? "" : "?" + request.getRawQuery());
        page.next().ifPresent(next -> response.header("Link", "<" + UriBuilder.fromUri(relative)
                .replaceQueryParam("cursor", next.value()).build() + ">; rel=\"next\""));
        return response.build();
    }
}
