package io.durablebatch.rest.runtime;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The path of the API as a client sees it: {@code quarkus.http.root-path}, then
 * {@code quarkus.rest.path}, then {@code quarkus.durable-batch.rest.root-path}. From configuration
 * only, so that no URL the API writes comes from the request's {@code Host}.
 */
final class ApiPath {

    private ApiPath() {
    }

    /** The full path of the API's root, e.g. {@code /batch}, or {@code /api/batch} under an HTTP root of {@code /api}. */
    static String of(DurableBatchRestBuildTimeConfig config) {
        Config all = ConfigProvider.getConfig();
        return join(join(all.getOptionalValue("quarkus.http.root-path", String.class).orElse("/"),
                all.getOptionalValue("quarkus.rest.path", String.class).orElse("/")), config.rootPath());
    }

    /** The path of the API's root below the HTTP root (where the application's Vert.x router is mounted). */
    static String belowHttpRoot(DurableBatchRestBuildTimeConfig config) {
        return join(ConfigProvider.getConfig().getOptionalValue("quarkus.rest.path", String.class).orElse("/"),
                config.rootPath());
    }

    /** Two paths joined with one slash, without a trailing one. */
    static String join(String parent, String child) {
        String head = parent.endsWith("/") ? parent.substring(0, parent.length() - 1) : parent;
        String tail = child.startsWith("/") ? child : "/" + child;
        String joined = head.startsWith("/") || head.isEmpty() ? head + tail : "/" + head + tail;
        return joined.length() > 1 && joined.endsWith("/") ? joined.substring(0, joined.length() - 1) : joined;
    }
}
