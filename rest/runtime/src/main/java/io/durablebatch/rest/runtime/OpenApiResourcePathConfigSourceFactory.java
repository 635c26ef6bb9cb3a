package io.durablebatch.rest.runtime;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * Tells SmallRye OpenAPI where the resources of {@link ApiResource#RESOURCES} are. They have no
 * class-level {@code @Path} (JAX-RS paths take no configuration; see {@link ProblemMapper}), so the
 * OpenAPI scanner finds each only through {@code mp.openapi.extensions.smallrye.scan.resource-class.<class>},
 * here set to {@code quarkus.durable-batch.rest.root-path}. Discovered by the service loader, it is a source
 * of the build-time configuration too, which the OpenAPI document is generated from. Its ordinal is
 * low, so an application's own value wins.
 */
public class OpenApiResourcePathConfigSourceFactory implements ConfigSourceFactory {

    static final String SCAN_KEY = "mp.openapi.extensions.smallrye.scan.resource-class.";

    private static final String ROOT_PATH_KEY = "quarkus.durable-batch.rest.root-path";

    private static final int ORDINAL = 50;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        ConfigValue configured = context.getValue(ROOT_PATH_KEY);
        String root = configured == null || configured.getValue() == null
                ? DurableBatchRestBuildTimeConfig.DEFAULT_ROOT_PATH
                : configured.getValue();
        Map<String, String> paths = ApiResource.RESOURCES.stream()
                .collect(Collectors.toMap(resource -> SCAN_KEY + resource.getName(), resource -> root));
        return List.of(new PropertiesConfigSource(paths, "durable-batch-rest-openapi", ORDINAL));
    }
}
