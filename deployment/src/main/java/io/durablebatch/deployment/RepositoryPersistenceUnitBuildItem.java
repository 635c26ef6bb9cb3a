package io.durablebatch.deployment;

import io.quarkus.builder.item.SimpleBuildItem;

/** The Hibernate ORM persistence unit that maps the repository's tables, as the build chose it. */
public final class RepositoryPersistenceUnitBuildItem extends SimpleBuildItem {

    private final String name;

    public RepositoryPersistenceUnitBuildItem(String name) {
        this.name = name;
    }

    /** The unit's name; {@code <default>} for the default persistence unit. */
    public String name() {
        return name;
    }
}
