package io.durablebatch.deployment;

import io.quarkus.builder.item.SimpleBuildItem;

/**
 * Marks that the runtime-init step bringing the repository's schema to this version has been
 * recorded: the steps that read the repository at runtime init consume it, so they run after it.
 */
public final class RepositorySchemaReadyBuildItem extends SimpleBuildItem {
}
