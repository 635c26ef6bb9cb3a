package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.JOB_EXECUTION_COLUMNS;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.operator.OwnerToken;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.runtime.entity.JobExecutionEntity;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * The execution listing, newest first: one statement per page, whose shape fixes the index it walks
 * whatever the planner estimates. With a job or statuses, the page is the newest rows of a backward
 * walk of {@code (job_name, status, id)} or {@code (status, id)} per status, each walk stopping at
 * the page size, merged: at most (statuses x page size) rows are read, at any depth and however
 * rare the status. Without either it walks the primary key. The creation time range and the owner
 * are conditions on the walk.
 */
@ApplicationScoped
public class JobExecutionListing {

    private static final Keyset KEYSET = Keyset.newestFirst("execution");
    private static final String[] EVERY_STATUS = Arrays.stream(ExecutionStatus.values()).map(ExecutionStatus::name)
            .toArray(String[]::new);

    // The optional conditions: a parameter bound to NULL passes every row.
    private static final String FILTERS = """
            AND (CAST(:createdFrom AS timestamptz) IS NULL OR created_at >= :createdFrom)
                  AND (CAST(:createdBefore AS timestamptz) IS NULL OR created_at < :createdBefore)
                  AND (CAST(:owner AS varchar) IS NULL OR owner_token = :owner)""";

    private final MetadataSql sql;
    private final SqlStatement byJob;
    private final SqlStatement byStatus;
    private final SqlStatement all;

    JobExecutionListing(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        Map<String, String> fragments = Map.of("columns", JOB_EXECUTION_COLUMNS, "filters", FILTERS);
        this.byJob = tables.statement("pageByJob", """
                SELECT e.* FROM unnest(CAST(:statuses AS varchar[])) AS s (status)
                CROSS JOIN LATERAL (
                    SELECT {columns} FROM {p}job_execution
                    WHERE job_name = :job AND status = s.status AND id < :after
                      {filters}
                    ORDER BY job_name DESC, status DESC, id DESC
                    LIMIT :limit) e
                ORDER BY e.id DESC
                LIMIT :limit""", fragments);
        this.byStatus = tables.statement("pageByStatus", """
                SELECT e.* FROM unnest(CAST(:statuses AS varchar[])) AS s (status)
                CROSS JOIN LATERAL (
                    SELECT {columns} FROM {p}job_execution
                    WHERE status = s.status AND id < :after
                      {filters}
                    ORDER BY status DESC, id DESC
                    LIMIT :limit) e
                ORDER BY e.id DESC
                LIMIT :limit""", fragments);
        this.all = tables.statement("page", """
                SELECT {columns} FROM {p}job_execution
                WHERE id < :after
                  {filters}
                ORDER BY id DESC
                LIMIT :limit""", fragments);
    }

    public Page<JobExecution> page(ExecutionQuery query, PageRequest page) {
        boolean byJobName = query.job().isPresent();
        SqlStatement statement = byJobName ? byJob : query.statuses().isEmpty() ? all : byStatus;
        return KEYSET.page(sql.query(statement, params -> {
            if (byJobName) {
                params.text("job", query.job().get().value());
            }
            if (statement != all) {
                params.texts("statuses", statuses(query.statuses()));
            }
            params.time("createdFrom", query.createdFrom().map(ExecutionRows::storedTime).orElse(null))
                    .time("createdBefore", query.createdBefore().map(ExecutionRows::storedTime).orElse(null))
                    .text("owner", query.owner().map(OwnerToken::value).orElse(null))
                    .bigint("after", KEYSET.after(page)).integer("limit", KEYSET.limit(page));
        }, JobExecutionEntity.class, row -> row), page, row -> row.id, ExecutionRows::jobExecution);
    }

    /** The statuses to walk: those asked for, or every one (a job's listing walks each status of the job). */
    private static String[] statuses(Set<ExecutionStatus> statuses) {
        return statuses.isEmpty() ? EVERY_STATUS : statuses.stream().map(ExecutionStatus::name).toArray(String[]::new);
    }
}
