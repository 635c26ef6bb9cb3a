package io.durablebatch.deployment.test.entity;

import static io.durablebatch.deployment.test.RepositoryTestSupport.dropTablesWithPrefix;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositorySchema;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Flyway owns the repository's tables, Hibernate the application's: with {@code drop-and-create}
 * (what Dev Services set) on a persistence unit that maps both, the application's table is created
 * while the repository keeps every table, its partial unique index and its CHECK constraints, which
 * Hibernate's own DDL would not have.
 */
class SchemaManagementLeavesRepositoryTablesTest {

    private static final String PREFIX = "filtered_";

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp(Ledger.class)
            .overrideConfigKey("quarkus.durable-batch.schema.table-prefix", PREFIX)
            .overrideConfigKey("quarkus.hibernate-orm.schema-management.strategy", "drop-and-create")
            // Migrated by an earlier start: drop-and-create would find the tables, and must leave them.
            .setBeforeAllCustomizer(() -> dropTablesWithPrefix(PREFIX));

    @Inject
    EntityManager entityManager;

    @Test
    void theRepositoryKeepsItsTablesIndexesAndConstraints() {
        assertEquals(RepositorySchema.tableNames(PREFIX), Set.copyOf(strings("""
                SELECT tablename FROM pg_tables
                WHERE schemaname = current_schema() AND starts_with(tablename, :prefix)""")));
        assertEquals(List.of("CREATE UNIQUE INDEX filtered_job_execution_unresolved_uq ON public.filtered_job_execution "
                + "USING btree (job_instance_id) WHERE ((status)::text = ANY ((ARRAY['STARTING'::character varying, "
                + "'STARTED'::character varying, 'STOPPING'::character varying, 'UNKNOWN'::character varying])::text[]))"),
                strings("""
                        SELECT indexdef FROM pg_indexes
                        WHERE indexname = :prefix || 'job_execution_unresolved_uq'"""));
        assertEquals(List.of("CHECK ((octet_length(key_digest) = 32))"), strings("""
                SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c
                WHERE c.conrelid = (:prefix || 'job_instance')::regclass AND c.contype = 'c'"""));
        assertEquals(List.of(SchemaMigrations.expectedVersion()), strings("""
                SELECT max(CAST(version AS integer)) FROM filtered_schema_history WHERE success"""));
    }

    @Test
    void theApplicationsTableIsCreatedByHibernate() {
        assertEquals(List.of("0"), strings("SELECT count(*) FROM filter_test_ledger"));
    }

    private List<String> strings(String sql) {
        return tx(() -> {
            var query = entityManager.createNativeQuery(sql);
            if (sql.contains(":prefix")) {
                query.setParameter("prefix", PREFIX);
            }
            return ((List<?>) query.getResultList()).stream().map(String::valueOf).toList();
        });
    }
}
