package io.durablebatch.runtime.schema;

import org.hibernate.boot.model.relational.Namespace;
import org.hibernate.boot.model.relational.Sequence;
import org.hibernate.mapping.Table;
import org.hibernate.tool.schema.spi.SchemaFilter;
import org.hibernate.tool.schema.spi.SchemaFilterProvider;

/**
 * Hibernate creates, drops, alters and truncates every table of its persistence unit except the
 * repository's (those under the table prefix), which Flyway owns; it validates them all, so a
 * mapping that drifts from the migrated schema fails {@code validate}.
 */
final class RepositorySchemaFilter implements SchemaFilterProvider {

    private final SchemaFilter notRepositoryTables;

    RepositorySchemaFilter(String prefix) {
        this.notRepositoryTables = new SchemaFilter() {
            @Override
            public boolean includeNamespace(Namespace namespace) {
                return true;
            }

            @Override
            public boolean includeTable(Table table) {
                return !table.getName().startsWith(prefix);
            }

            @Override
            public boolean includeSequence(Sequence sequence) {
                return true;
            }
        };
    }

    @Override
    public SchemaFilter getCreateFilter() {
        return notRepositoryTables;
    }

    @Override
    public SchemaFilter getDropFilter() {
        return notRepositoryTables;
    }

    @Override
    public SchemaFilter getTruncatorFilter() {
        return notRepositoryTables;
    }

    @Override
    public SchemaFilter getMigrateFilter() {
        return notRepositoryTables;
    }

    @Override
    public SchemaFilter getValidateFilter() {
        return SchemaFilter.ALL;
    }
}
