package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.JOB_EXECUTION_COLUMNS;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.runtime.entity.JobExecutionEntity;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * The execution listing, newest first: one statement per page, whose shape fixes the index it walks
 * whatever the planner estimates. With a job, statuses, a time range or an owner, the page is merged
 * from backward walks of {@code (job_name, status, id)} or {@code (status, id)}, one per status (every
 * status where none is given), each stopping at the page size: without a time range or owner, at most
 * statuses x page size index entries, at any depth and however rare the status. Both indexes include
 * the creation time and the owner, so those conditions are checked on the index entries a walk passes
 * (an index-only walk) and only the page's own rows are read from the table. Without any filter the
 * page walks the primary key.
 * <p>
 * Each walk orders by the walked index's whole key, and names its leading columns so that PostgreSQL
 * cannot fold them away as constants: the status as a range ({@code status >= s AND (status, id) <
 * (s, after)}, which holds for that status only), the job as a one-element array. Only that index
 * then delivers the order the walk's {@code LIMIT} needs; the primary key (newest first too) would
 * need a sort of every row the filters keep, so no generic plan walks it backwards filtering row by
 * row, which for a status without rows meant the whole table ({@code ListingPlanTest}).
 */
@ApplicationScoped
public class JobExecutionListing {

    private static final Keyset KEYSET = Keyset.newestFirst("execution");
    private static final String[] EVERY_STATUS = Arrays.stream(ExecutionStatus.values()).map(ExecutionStatus::name)
            .toArray(String[]::new);

    // The optional conditions, on the columns the walked indexes include: NULL passes every row. As
    // CASE expressions, each is estimated to keep half the rows whatever the column's statistics (an
    // OR of "IS NULL" and a comparison was estimated to keep almost none of a column that is mostly
    // NULL, and a sort of those few looked cheaper to the planner than the walk).
    private static final String FILTERS = """
            AND CASE WHEN CAST(:createdFrom AS timestamptz) IS NULL THEN true ELSE created_at >= :createdFrom END
                      AND CASE WHEN CAST(:createdBefore AS timestamptz) IS NULL THEN true ELSE created_at < :createdBefore END
                      AND CASE WHEN CAST(:owner AS varchar) IS NULL THEN true ELSE owner_token = :owner END""";

    // The page's ids from one walk per status, then its rows.
    private static final String WALKS = """
            SELECT {columns}
            FROM (SELECT w.id FROM unnest(CAST(:statuses AS varchar[])) AS s (status)
                  CROSS JOIN LATERAL (
                      SELECT id FROM {p}job_execution
                      WHERE {walk}status >= s.status AND (status, id) < (s.status, :after)
                      {filters}
                      ORDER BY {walkOrder}status DESC, id DESC
                      LIMIT :limit) w
                  ORDER BY w.id DESC
                  LIMIT :limit) page
            JOIN {p}job_execution e ON e.id = page.id
            ORDER BY e.id DESC""";

    private final MetadataSql sql;
    private final SqlStatement byJob;
    private final SqlStatement byStatus;
    private final SqlStatement all;

    JobExecutionListing(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        String columns = Arrays.stream(JOB_EXECUTION_COLUMNS.split(",")).map(column -> "e." + column.strip())
                .collect(Collectors.joining(", "));
        this.byJob = tables.statement("pageByJob", WALKS, Map.of("columns", columns, "walk",
                "job_name = ANY (ARRAY[CAST(:job AS varchar)]) AND ", "walkOrder", "job_name DESC, ", "filters", FILTERS));
        this.byStatus = tables.statement("pageByStatus", WALKS, Map.of("columns", columns, "walk", "", "walkOrder", "",
                "filters", FILTERS));
        this.all = tables.statement("page", """
                SELECT {columns} FROM {p}job_execution
                WHERE id < :after
                ORDER BY id DESC
                LIMIT :limit""", Map.of("columns", JOB_EXECUTION_COLUMNS));
    }

    public Page<JobExecution> page(ExecutionQuery query, PageRequest page) {
        SqlStatement statement = query.job().isPresent() ? byJob : unfiltered(query) ? all : byStatus;
        return KEYSET.page(sql.query(statement, params -> {
            params.bigint("after", KEYSET.after(page)).integer("limit", KEYSET.limit(page));
            if (statement == all) {
                return;
            }
            query.job().ifPresent(job -> params.text("job", job.value()));
            params.texts("statuses", statuses(query.statuses()))
                    .time("createdFrom", query.createdFrom().map(ExecutionRows::storedTime).orElse(null))
                    .time("createdBefore", query.createdBefore().map(ExecutionRows::storedTime).orElse(null))
                    .text("owner", query.owner().map(OwnerToken::value).orElse(null));
        }, JobExecutionEntity.class, row -> row), page, row -> row.id, ExecutionRows::jobExecution);
    }

    private static boolean unfiltered(ExecutionQuery query) {
        return query.statuses().isEmpty() && query.createdFrom().isEmpty() && query.createdBefore().isEmpty()
                && query.owner().isEmpty();
    }

    /** The statuses to walk: those asked for, or every one. */
    private static String[] statuses(Set<ExecutionStatus> statuses) {
        return statuses.isEmpty() ? EVERY_STATUS : statuses.stream().map(ExecutionStatus::name).toArray(String[]::new);
    }
}
