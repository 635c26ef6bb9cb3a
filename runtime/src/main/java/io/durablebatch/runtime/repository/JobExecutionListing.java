package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.JOB_EXECUTION_COLUMNS;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageCursor;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.runtime.entity.JobExecutionEntity;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * The execution listing, newest first by creation time (then id): one statement per page, whose
 * shape fixes the index it walks whatever the planner estimates. The page is merged from backward
 * walks of {@code (owner_token, job_name, status, created_at, id)}, {@code (owner_token, status,
 * created_at, id)}, {@code (job_name, status, created_at, id)} or {@code (status, created_at, id)},
 * one per status (every status where none is given), each stopping at the page size. The leading
 * filters (owner and job, either, or none) and the status are equalities of the walked key, the time
 * range's start and the cursor (or the range's end) bounds of its creation time, so every condition
 * ends or starts the walk: a page reads at most statuses x page size index entries at any depth,
 * however rare the status, however narrow the time range and whatever the owner holds.
 * <p>
 * Each walk orders by creation time and id, an order the primary key cannot deliver, so no generic
 * plan walks it filtering row by row (for a status without rows that meant the whole table). The
 * owner and the job are named as one-element arrays, so that PostgreSQL cannot fold them into
 * constants and take another index of the same order for them ({@code ListingPlanTest}). The
 * cursor names the last row's creation time and id ({@code execution:<epoch micros>.<id>}).
 */
@ApplicationScoped
public class JobExecutionListing {

    /** The walks a page can take, by the leading filter: the names of their statements. */
    public enum Walk {
        /** Executions of one job an owner token holds. */
        OWNER_AND_JOB("pageByOwnerAndJob"),
        /** Executions an owner token holds. */
        OWNER("pageByOwner"),
        /** Executions of one job. */
        JOB("pageByJob"),
        /** Executions of every job (in the statuses given, or all). */
        STATUS("pageByStatus");

        /** The name of the walk's statement. */
        public final String statement;

        Walk(String statement) {
            this.statement = statement;
        }

        /** The walk a query takes. */
        public static Walk of(ExecutionQuery query) {
            if (query.owner().isPresent()) {
                return query.job().isPresent() ? OWNER_AND_JOB : OWNER;
            }
            return query.job().isPresent() ? JOB : STATUS;
        }
    }

    private static final String LISTING = "execution";
    private static final String[] EVERY_STATUS = Arrays.stream(ExecutionStatus.values()).map(ExecutionStatus::name)
            .toArray(String[]::new);

    // The page's ids from one walk per status, then its rows, each looked up by id (a LIMIT keeps the
    // lookup a nested loop: a join the planner may hash, with a scan of the table, when the generic
    // plan guesses many walked rows). The lower bound is the time range's
    // start (or none); the upper bound is the cursor or the time range's end, whichever is lower
    // (chosen before the statement runs, so the walk starts right there).
    private static final String WALKS = """
            SELECT {columns}
            FROM (SELECT w.created_at, w.id FROM unnest(CAST(:statuses AS varchar[])) AS s (status)
                  CROSS JOIN LATERAL (
                      SELECT created_at, id FROM {p}job_execution
                      WHERE {lead}status = s.status
                        AND created_at >= COALESCE(CAST(:createdFrom AS timestamptz), '-infinity')
                        AND (created_at, id) < (COALESCE(CAST(:untilCreated AS timestamptz), 'infinity'), :untilId){filters}
                      ORDER BY {leadOrder}status DESC, created_at DESC, id DESC
                      LIMIT :limit) w
                  ORDER BY w.created_at DESC, w.id DESC
                  LIMIT :limit) page
            CROSS JOIN LATERAL (SELECT {rowColumns} FROM {p}job_execution WHERE id = page.id LIMIT 1) e
            ORDER BY page.created_at DESC, page.id DESC""";

    private final MetadataSql sql;
    private final Map<Walk, SqlStatement> statements;

    JobExecutionListing(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        String columns = Arrays.stream(JOB_EXECUTION_COLUMNS.split(",")).map(column -> "e." + column.strip())
                .collect(Collectors.joining(", "));
        // an owner's walks name the owner index's predicate, so that the planner may take it
        String owned = "\n            AND owner_token IS NOT NULL";
        this.statements = Map.of(
                // the job a plain equality: PostgreSQL 15 checks an array on a second column of an
                // ordered walk on each entry; the owner's array keeps the walk on this index
                Walk.OWNER_AND_JOB, walk(tables, columns, Walk.OWNER_AND_JOB,
                        "owner_token = ANY (ARRAY[CAST(:owner AS varchar)]) AND job_name = CAST(:job AS varchar) AND ",
                        "owner_token DESC, job_name DESC, ", owned),
                Walk.OWNER, walk(tables, columns, Walk.OWNER, "owner_token = ANY (ARRAY[CAST(:owner AS varchar)]) AND ",
                        "owner_token DESC, ", owned),
                Walk.JOB, walk(tables, columns, Walk.JOB, "job_name = ANY (ARRAY[CAST(:job AS varchar)]) AND ",
                        "job_name DESC, ", ""),
                Walk.STATUS, walk(tables, columns, Walk.STATUS, "", "", ""));
    }

    private static SqlStatement walk(RepositoryTables tables, String columns, Walk walk, String lead, String leadOrder,
            String filters) {
        return tables.statement(walk.statement, WALKS, Map.of("columns", columns, "rowColumns", JOB_EXECUTION_COLUMNS,
                "lead", lead, "leadOrder", leadOrder, "filters", filters));
    }

    /** The statement a query's pages run. */
    public SqlStatement statement(ExecutionQuery query) {
        return statements.get(Walk.of(query));
    }

    public Page<JobExecution> page(ExecutionQuery query, PageRequest page) {
        Walk walk = Walk.of(query);
        Bound until = until(page.after().map(JobExecutionListing::position), query.createdBefore());
        List<JobExecutionEntity> rows = sql.query(statements.get(walk), params -> {
            params.texts("statuses", statuses(query.statuses()))
                    .time("createdFrom", query.createdFrom().map(ExecutionRows::storedTime).orElse(null))
                    .time("untilCreated", until.createdAt()).bigint("untilId", until.id())
                    .integer("limit", page.size() + 1);
            query.owner().ifPresent(owner -> params.text("owner", owner.value()));
            query.job().ifPresent(job -> params.text("job", job.value()));
        }, JobExecutionEntity.class, row -> row);
        int size = Math.min(rows.size(), page.size());
        Optional<PageCursor> next = rows.size() > page.size() ? Optional.of(cursor(rows.get(size - 1)))
                : Optional.empty();
        return new Page<>(rows.subList(0, size).stream().map(ExecutionRows::jobExecution).toList(), next);
    }

    /** Where a page's walks start, exclusive: a creation time (null for none) and an id. */
    private record Bound(Instant createdAt, long id) {
    }

    /**
     * The lower of the cursor and the time range's end: the walks start right below it. The range's
     * end is exclusive for every id, so it is paired with the lowest id.
     */
    private static Bound until(Optional<Bound> cursor, Optional<Instant> createdBefore) {
        Optional<Bound> end = createdBefore.map(ExecutionRows::storedTime).map(time -> new Bound(time, Long.MIN_VALUE));
        if (cursor.isEmpty()) {
            return end.orElse(new Bound(null, Long.MAX_VALUE));
        }
        if (end.isEmpty()) {
            return cursor.get();
        }
        int order = end.get().createdAt().compareTo(cursor.get().createdAt());
        return order < 0 || order == 0 && end.get().id() < cursor.get().id() ? end.get() : cursor.get();
    }

    private static PageCursor cursor(JobExecutionEntity row) {
        Instant created = row.createdAt;
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, created);
        return PageCursor.of(LISTING + ":" + micros + "." + row.id);
    }

    private static Bound position(PageCursor cursor) {
        String value = cursor.value();
        String prefix = LISTING + ":";
        int dot = value.indexOf('.', prefix.length());
        if (value.startsWith(prefix) && dot > prefix.length()) {
            try {
                long micros = Long.parseLong(value.substring(prefix.length(), dot));
                long id = Long.parseLong(value.substring(dot + 1));
                return new Bound(Instant.EPOCH.plus(micros, ChronoUnit.MICROS), id);
            } catch (NumberFormatException e) {
                // refused below
            }
        }
        throw new IllegalArgumentException("page.after is not a cursor of the " + LISTING + " listing: '" + value + "'");
    }

    /** The statuses to walk: those asked for, or every one. */
    private static String[] statuses(Set<ExecutionStatus> statuses) {
        return statuses.isEmpty() ? EVERY_STATUS : statuses.stream().map(ExecutionStatus::name).toArray(String[]::new);
    }
}
