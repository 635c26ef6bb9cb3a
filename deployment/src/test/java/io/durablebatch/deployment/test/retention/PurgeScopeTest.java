package io.durablebatch.deployment.test.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestApp;
import io.durablebatch.deployment.test.Rows;
import io.durablebatch.runtime.retention.PurgeStore;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Guards the purge's reach as the schema grows: every repository table that references an instance,
 * execution or step, by foreign key or by an {@code ..._id} column naming one, is either purged with
 * its instance ({@link PurgeStore#OWNED_ROWS}) or deliberately kept ({@link PurgeStore#RETAINED_TABLES}).
 * A migration that adds such a table fails here until it is placed in one of the two lists.
 */
class PurgeScopeTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestApp.with(Rows.class);

    @Inject
    AgroalDataSource dataSource;

    @Test
    void everyTableThatReferencesAnInstanceIsPurgedOrDeliberatelyKept() {
        List<Map<String, Object>> referencing = Rows.select(dataSource, "SELECT DISTINCT c.table_name FROM "
                + "information_schema.columns c WHERE c.table_schema = current_schema() "
                + "AND c.table_name LIKE 'dbatch\\_%' AND c.table_name <> 'dbatch_schema_history' "
                + "AND (c.column_name ~ '(instance|execution)_id$' OR c.table_name IN ("
                + "  SELECT tc.table_name FROM information_schema.table_constraints tc "
                + "  JOIN information_schema.constraint_column_usage u ON u.constraint_name = tc.constraint_name "
                + "  WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema() "
                + "  AND u.table_name IN ('dbatch_job_instance', 'dbatch_job_execution', 'dbatch_step_execution')))");
        TreeSet<String> found = new TreeSet<>();
        referencing.forEach(row -> found.add(((String) row.get("table_name")).substring("dbatch_".length())));

        TreeSet<String> accounted = new TreeSet<>(PurgeStore.RETAINED_TABLES);
        List<String> owned = new ArrayList<>();
        PurgeStore.OWNED_ROWS.forEach(rows -> owned.add(rows.table()));
        accounted.addAll(owned);
        accounted.remove("job_instance");

        assertEquals(accounted, found);
    }

    @Test
    void foreignKeysToPurgedTablesCheckOncePerDeletedRow() {
        // A purge deletes children first, so a foreign key never acts on a delete; RESTRICT checks
        // each deleted parent once, where NO ACTION checks twice (it also looks for a replacement
        // parent). Those checks are most of a purge's cost.
        List<Map<String, Object>> notRestrict = Rows.select(dataSource, "SELECT conname, confdeltype::text "
                + "FROM pg_constraint WHERE contype = 'f' AND confrelid IN ("
                + "'dbatch_job_instance'::regclass, 'dbatch_job_execution'::regclass, 'dbatch_step_execution'::regclass) "
                + "AND confdeltype <> 'r' ORDER BY conname");

        assertEquals(List.of(), notRestrict);
    }

    @Test
    void theInstancesAreDeletedLast() {
        assertEquals("job_instance", PurgeStore.OWNED_ROWS.get(PurgeStore.OWNED_ROWS.size() - 1).table());
    }
}
