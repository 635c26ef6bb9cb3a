package io.durablebatch.deployment;

import io.quarkus.builder.item.SimpleBuildItem;
import io.quarkus.datasource.common.runtime.DataSourceUtil;

/** The datasource that holds the job repository, as the build resolved it from the configured datasources. */
public final class RepositoryDataSourceBuildItem extends SimpleBuildItem {

    private final String name;

    public RepositoryDataSourceBuildItem(String name) {
        this.name = name;
    }

    /** The datasource's name; {@code <default>} for the default datasource. */
    public String name() {
        return name;
    }

    public boolean isDefault() {
        return DataSourceUtil.isDefault(name);
    }

    /**
     * The prefix of the datasource's configuration properties, {@code quarkus.datasource.} or
     * {@code quarkus.datasource."name".}.
     */
    String configPrefix() {
        return isDefault() ? "quarkus.datasource." : "quarkus.datasource.\"" + name + "\".";
    }
}
