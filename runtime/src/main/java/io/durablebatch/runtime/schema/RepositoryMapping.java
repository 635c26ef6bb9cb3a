package io.durablebatch.runtime.schema;

import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

import org.hibernate.boot.Metadata;
import org.hibernate.boot.spi.BootstrapContext;
import org.hibernate.cfg.SchemaToolingSettings;
import org.hibernate.mapping.PersistentClass;

import io.durablebatch.runtime.entity.RepositoryEntities;
import io.quarkus.hibernate.orm.runtime.integration.HibernateOrmIntegrationRuntimeInitListener;
import io.quarkus.hibernate.orm.runtime.integration.HibernateOrmIntegrationStaticInitListener;

/**
 * The repository's side of the Hibernate ORM persistence unit that maps its tables: the tables'
 * names under the build's table prefix, and Flyway's ownership of them.
 */
public final class RepositoryMapping {

    private RepositoryMapping() {
    }

    /**
     * Renames the entities' tables, written with {@link TablePrefix#DEFAULT}, to {@code prefix}
     * once Hibernate has read the mapping: the prefix is build-time configuration because the
     * mapping is built before the application runs.
     */
    public static HibernateOrmIntegrationStaticInitListener tablePrefix(String prefix) {
        return new HibernateOrmIntegrationStaticInitListener() {
            @Override
            public void contributeBootProperties(BiConsumer<String, Object> properties) {
            }

            @Override
            public void onMetadataInitialized(Metadata metadata, BootstrapContext context,
                    BiConsumer<String, Object> properties) {
                if (prefix.equals(TablePrefix.DEFAULT)) {
                    return;
                }
                Set<String> entities = RepositoryEntities.CLASSES.stream().map(Class::getName)
                        .collect(Collectors.toSet());
                for (PersistentClass entity : metadata.getEntityBindings()) {
                    if (entities.contains(entity.getClassName())) {
                        entity.getTable().setName(TablePrefix.rename(entity.getTable().getName(), prefix));
                    }
                }
            }
        };
    }

    /**
     * Keeps Hibernate's schema management away from the repository's tables, whatever strategy
     * the application sets (Dev Services set {@code drop-and-create}): Flyway's partial unique
     * index and CHECK constraints are the repository's invariants, which Hibernate's DDL lacks.
     */
    public static HibernateOrmIntegrationRuntimeInitListener schemaFilter(String prefix) {
        return properties -> properties.accept(SchemaToolingSettings.HBM2DDL_FILTER_PROVIDER,
                new RepositorySchemaFilter(prefix));
    }
}
