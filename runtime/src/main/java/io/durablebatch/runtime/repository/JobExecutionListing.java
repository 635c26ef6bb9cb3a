package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.JOB_EXECUTION_COLUMNS;

import java.util.Map;

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
import io.durablebatch.runtime.sql.SqlParams;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * The execution listing, newest first. One statement per page, and which one is the query's choice
 * of index: {@code (job_name, id)} for a job, {@code (status, id)} for statuses, else the primary
 * key, each walked backwards from the cursor. The other filters are conditions on the walk, so a page
 * reads its rows and those the filters pass over, never the history behind them.
 */
@ApplicationScoped
public class JobExecutionListing {

    private static final Keyset KEYSET = Keyset.newestFirst("execution");

    // The optional filters: a parameter bound to NULL passes every row.
    private static final String FILTERS = """
            AND (CAST(:statuses AS varchar[]) IS NULL OR status = ANY (CAST(:statuses AS varchar[])))
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
                SELECT {columns} FROM {p}job_execution
                WHERE job_name = :job AND id < :after
                  {filters}
                ORDER BY job_name DESC, id DESC
                LIMIT :limit""", fragments);
        this.byStatus = tables.statement("pageByStatus", """
                SELECT {columns} FROM {p}job_execution
                WHERE status = ANY (CAST(:statuses AS varchar[])) AND id < :after
                  {filters}
                ORDER BY id DESC
                LIMIT :limit""", fragments);
        this.all = tables.statement("page", """
                SELECT {columns} FROM {p}job_execution
                WHERE id < :after
                  {filters}
                ORDER BY id DESC
                LIMIT :limit""", fragments);
    }

    public Page<JobExecution> page(ExecutionQuery query, PageRequest page) {
        SqlStatement statement = query.job().isPresent() ? byJob : query.statuses().isEmpty() ? all : byStatus;
        String[] statuses = query.statuses().isEmpty() ? null
                : query.statuses().stream().map(ExecutionStatus::name).sorted().toArray(String[]::new);
        return KEYSET.page(sql.query(statement, params -> {
            if (statement == byJob) {
                params.text("job", query.job().get().value());
            }
            bindFilters(params.texts("statuses", statuses), query).bigint("after", KEYSET.after(page))
                    .integer("limit", KEYSET.limit(page));
        }, JobExecutionEntity.class, row -> row), page, row -> row.id, ExecutionRows::jobExecution);
    }

    private static SqlParams bindFilters(SqlParams params, ExecutionQuery query) {
        return params.time("createdFrom", query.createdFrom().map(ExecutionRows::storedTime).orElse(null))
                .time("createdBefore", query.createdBefore().map(ExecutionRows::storedTime).orElse(null))
                .text("owner", query.owner().map(OwnerToken::value).orElse(null));
    }
}
