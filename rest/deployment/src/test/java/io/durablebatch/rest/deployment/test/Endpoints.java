package io.durablebatch.rest.deployment.test;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;

import io.durablebatch.rest.runtime.ApiResource;
import io.durablebatch.rest.runtime.DurableBatchRestBuildTimeConfig;

/**
 * Every endpoint of the REST API, read from its resource classes by reflection, so that a rule
 * tested over "every endpoint" covers an endpoint added later without the test changing.
 */
public record Endpoints(String httpMethod, String path, Method method) {

    private static final Map<Class<? extends Annotation>, String> VERBS = Map.of(GET.class, "GET", POST.class, "POST",
            PUT.class, "PUT", DELETE.class, "DELETE");

    /** Every endpoint under the default root path. */
    public static List<Endpoints> all() {
        return under(DurableBatchRestBuildTimeConfig.DEFAULT_ROOT_PATH);
    }

    /** Every endpoint under the given root path. */
    public static List<Endpoints> under(String root) {
        return ApiResource.RESOURCES.stream().flatMap(resource -> Arrays.stream(resource.getDeclaredMethods()))
                .filter(m -> VERBS.keySet().stream().anyMatch(m::isAnnotationPresent))
                .map(m -> new Endpoints(VERBS.entrySet().stream().filter(e -> m.isAnnotationPresent(e.getKey()))
                        .findFirst().orElseThrow().getValue(), root + m.getAnnotation(Path.class).value(), m))
                .sorted(Comparator.comparing(Endpoints::path).thenComparing(Endpoints::httpMethod)).toList();
    }

    /** The path with every template filled: ids with {@code id}, names with {@code name}. */
    public String concrete(long id, String name) {
        return path.replaceAll("\\{(id|[a-z]*Id)\\}", Long.toString(id)).replaceAll("\\{[a-zA-Z]+\\}", name);
    }
}
