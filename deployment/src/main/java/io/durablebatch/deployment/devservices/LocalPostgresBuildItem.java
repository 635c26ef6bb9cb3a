package io.durablebatch.deployment.devservices;

import io.quarkus.builder.item.SimpleBuildItem;

/**
 * The decision, made at build time in dev and test modes, that Durable Batch starts a local
 * PostgreSQL server for the repository's datasource.
 */
public final class LocalPostgresBuildItem extends SimpleBuildItem {

    private final String dataSource;
    private final LocalPostgres.Settings settings;

    LocalPostgresBuildItem(String dataSource, LocalPostgres.Settings settings) {
        this.dataSource = dataSource;
        this.settings = settings;
    }

    /** The name of the datasource the server is for. */
    public String dataSource() {
        return dataSource;
    }

    LocalPostgres.Settings settings() {
        return settings;
    }
}
