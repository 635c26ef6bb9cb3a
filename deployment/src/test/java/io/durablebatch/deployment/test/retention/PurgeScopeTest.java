package io.durablebatch.deployment.test.retention;

import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.StoredState;
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
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    StoredState state;

    @Test
    void everyTableThatReferencesAnInstanceIsPurgedOrDeliberatelyKept() {
        List<Map<String, Object>> referencing = state.rows("SELECT DISTINCT c.table_name FROM "
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
    void foreignKeysBetweenRepositoryTablesCheckOncePerDeletedRow() {
        // A purge deletes children first, so a foreign key never acts on a delete; RESTRICT checks
        // each deleted parent once, where NO ACTION checks twice (it also looks for a replacement
        // parent). Those checks are most of a purge's cost.
        List<Map<String, Object>> notRestrict = state.rows("SELECT conname, confdeltype::text "
                + "FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace "
                + "AND confrelid::regclass::text LIKE 'dbatch\\_%' AND confdeltype <> 'r' ORDER BY conname");
        long foreignKeys = state.number("SELECT count(*) FROM pg_constraint WHERE contype = 'f' "
                + "AND connamespace = current_schema()::regnamespace AND confrelid::regclass::text LIKE 'dbatch\\_%'");

        assertEquals(List.of(), notRestrict);
        // V1: 3 (execution and step to their parents), V2: 4 (flows), V3: 3 (partitions), V5: 1 (hold)
        assertEquals(11, foreignKeys);
    }

    @Test
    void everyTableIsPurgedBeforeTheTablesItReferences() {
        List<String> order = PurgeStore.OWNED_ROWS.stream().map(PurgeStore.OwnedRows::table).toList();
        List<Map<String, Object>> references = state.rows("SELECT DISTINCT "
                + "substr(conrelid::regclass::text, 8) AS child, substr(confrelid::regclass::text, 8) AS parent "
                + "FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace "
                + "AND confrelid::regclass::text LIKE 'dbatch\\_%' AND conrelid <> confrelid ORDER BY 1, 2");

        List<String> inverted = new ArrayList<>();
        for (Map<String, Object> reference : references) {
            String child = (String) reference.get("child");
            String parent = (String) reference.get("parent");
            if (order.contains(child) && order.contains(parent) && order.indexOf(child) > order.indexOf(parent)) {
                inverted.add(child + " -> " + parent);
            }
        }
        assertEquals(List.of(), inverted, "purged after a table it references: " + order);
    }

    @Test
    void theInstancesAreDeletedLast() {
        assertEquals("job_instance", PurgeStore.OWNED_ROWS.get(PurgeStore.OWNED_ROWS.size() - 1).table());
    }
}
