package io.durablebatch.repository.retention;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.durablebatch.Checks;

/**
 * The rows one purge deleted, per table (by its name without the configured prefix, e.g.
 * {@code step_execution}), in the order they were deleted: children first, instances last.
 */
public record PurgeCounts(Map<String, Long> deletedRows) {

    public PurgeCounts {
        deletedRows = Collections.unmodifiableMap(new LinkedHashMap<>(Checks.notNull(deletedRows, "deletedRows")));
    }

    /** The rows deleted from {@code table}, zero if none. */
    public long deleted(String table) {
        return deletedRows.getOrDefault(table, 0L);
    }

    public long jobInstances() {
        return deleted("job_instance");
    }

    public long total() {
        return deletedRows.values().stream().mapToLong(Long::longValue).sum();
    }
}
