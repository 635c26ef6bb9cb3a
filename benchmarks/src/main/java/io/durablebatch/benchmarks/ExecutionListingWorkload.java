package io.durablebatch.benchmarks;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageCursor;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.control.OwnerToken;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The operator's execution listing with a large history stored: pages of
 * {@link JobRepository#findJobExecutions} newest first, by every combination of its filters (a job,
 * FAILED, a time range's start, its end, an owner), each from the first page and from random depths (a cursor in the middle of
 * the history), with the
 * statements per page, their generic plans and the server's execution time; and the same pages
 * through the operator REST API ({@code GET /batch/executions}) over loopback HTTP, as a client
 * of this application's own server sees them (so the figure bounds the server's time from above).
 * <p>
 * The history is inserted set-based: one instance per execution over four jobs, one execution in a
 * hundred FAILED, the rest COMPLETED, created a second apart in id order, held by three owner tokens
 * in turn.
 */
final class ExecutionListingWorkload implements Workload {

    private static final List<String> JOBS = List.of("bench-list-a", "bench-list-b", "bench-list-c", "bench-list-d");
    private static final long SEED = 20261202L;

    private static final String INSERT_INSTANCES = "INSERT INTO {p}job_instance (job_name, key_bytes, key_digest, created_at) "
            + "SELECT (ARRAY['bench-list-a', 'bench-list-b', 'bench-list-c', 'bench-list-d'])[1 + g % 4], "
            + "int8send(g), sha256(int8send(g)), now() - interval '30 days' + g * interval '1 second' "
            + "FROM generate_series(1, ?) AS g ORDER BY g";

    private static final String INSERT_EXECUTIONS = "INSERT INTO {p}job_execution (job_instance_id, job_name, attempt, "
            + "status, exit_code, created_at, started_at, ended_at, last_updated, version, owner_token, owner_claimed_at) "
            + "SELECT i.id, i.job_name, 1, s.status, s.status, i.created_at, i.created_at, "
            + "i.created_at + interval '1 minute', i.created_at + interval '1 minute', 2, 'bench-node-' || i.id % 3, i.created_at "
            + "FROM {p}job_instance i "
            + "CROSS JOIN LATERAL (SELECT CASE WHEN (i.id / 4) % 100 = 7 THEN 'FAILED' ELSE 'COMPLETED' END AS status) s "
            + "ORDER BY i.id";

    private final BenchmarkConfig.Listing config;
    private final JobRepository repository;
    private final BenchDatabase database;
    private final StatementCounter statements;
    private final QueryPlans plans;
    private static final Pattern ACCESS_LINE = Pattern.compile("^(\\d+) GET \\S*[?&]sample=(\\w+)");

    private final URI api;
    private final Optional<Path> accessLog;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final String authorization = "Basic "
            + Base64.getEncoder().encodeToString("bench:bench".getBytes(StandardCharsets.UTF_8));

    ExecutionListingWorkload(BenchmarkConfig.Listing config, JobRepository repository, BenchDatabase database,
            StatementCounter statements, QueryPlans plans, int httpPort, Optional<Path> accessLog) {
        this.config = config;
        this.repository = repository;
        this.database = database;
        this.statements = statements;
        this.plans = plans;
        this.api = URI.create("http://127.0.0.1:" + httpPort + "/batch/executions");
        this.accessLog = accessLog;
    }

    @Override
    public String name() {
        return "execution-listing";
    }

    @Override
    public String description() {
        return "p50/p99 of one page of " + config.pageSize() + " executions, with " + config.executions()
                + " executions stored, by filter and depth";
    }

    /** One kind of page: its query, and whether it starts at the newest execution or at a random depth. */
    private record Kind(String name, ExecutionQuery query, boolean deep) {
    }

    @Override
    public JsonLine run() {
        long loadStarted = System.nanoTime();
        database.update(INSERT_INSTANCES, config.executions());
        database.update(INSERT_EXECUTIONS);
        database.execute("ANALYZE {p}job_instance, {p}job_execution");
        database.checkpoint();
        double loadSeconds = (System.nanoTime() - loadStarted) / 1e9;
        long stored = database.queryLong("SELECT count(*) FROM {p}job_execution");
        long lowest = database.queryLong("SELECT min(id) FROM {p}job_execution");
        long highest = database.queryLong("SELECT max(id) FROM {p}job_execution");
        // deep cursors: the creation time and id of executions a quarter to three quarters down
        SplittableRandom depths = new SplittableRandom(SEED + 1);
        long span = highest - lowest;
        for (int i = 0; i < deepCursors.length; i++) {
            long id = lowest + span / 4 + depths.nextLong(span / 2);
            deepCursors[i] = PageCursor.of("execution:" + database.queryLong(
                    "SELECT (extract(epoch FROM created_at) * 1000000)::bigint FROM {p}job_execution WHERE id = ?", id)
                    + "." + id);
        }
        Instant oldest = Instant.EPOCH.plus(database.queryLong(
                "SELECT (extract(epoch FROM min(created_at)) * 1000000)::bigint FROM {p}job_execution"), ChronoUnit.MICROS);
        Instant newest = Instant.EPOCH.plus(database.queryLong(
                "SELECT (extract(epoch FROM max(created_at)) * 1000000)::bigint FROM {p}job_execution"), ChronoUnit.MICROS);
        Duration history = Duration.between(oldest, newest);

        // every filter combination: a job, FAILED, a time range's start and end (a tenth and nine tenths
        // down the history), an owner (one in three executions)
        Map<String, UnaryOperator<ExecutionQuery>> filters = new LinkedHashMap<>();
        filters.put("Job", query -> query.job(JobName.of(JOBS.get(1))));
        filters.put("Failed", query -> query.statuses(Set.of(ExecutionStatus.FAILED)));
        filters.put("From", query -> query.createdFrom(oldest.plus(history.dividedBy(10))));
        filters.put("Before", query -> query.createdBefore(newest.minus(history.dividedBy(10))));
        filters.put("Owner", query -> query.ownedBy(OwnerToken.of("bench-node-1")));
        List<String> names = List.copyOf(filters.keySet());
        List<Kind> kinds = new ArrayList<>();
        for (int combination = 0; combination < 1 << names.size(); combination++) {
            ExecutionQuery query = ExecutionQuery.all();
            StringBuilder name = new StringBuilder("all");
            for (int i = 0; i < names.size(); i++) {
                if ((combination & 1 << i) != 0) {
                    query = filters.get(names.get(i)).apply(query);
                    name.append(names.get(i));
                }
            }
            kinds.add(new Kind(name.toString(), query, false));
            kinds.add(new Kind(name + "Deep", query, true));
        }

        SplittableRandom random = new SplittableRandom(SEED);
        Map<String, long[]> nanos = new LinkedHashMap<>();
        Map<String, long[]> httpNanos = new LinkedHashMap<>();
        Map<String, Long> wrong = new LinkedHashMap<>();
        for (Kind kind : kinds) {
            nanos.put(kind.name(), new long[config.samples()]);
            httpNanos.put(kind.name(), new long[config.samples()]);
            wrong.put(kind.name(), 0L);
        }
        // warm-up, then the timed pages, the kinds taking turns so that all see the same load
        for (int i = 0; i < config.warmup(); i++) {
            for (Kind kind : kinds) {
                page(kind, random, lowest, highest);
                httpPage(kind, random, lowest, highest, false);
            }
        }
        long earlierLogLines = accessLogLines();
        StatementCounter.Window window = statements.start();
        for (int i = 0; i < config.samples(); i++) {
            for (Kind kind : kinds) {
                long started = System.nanoTime();
                Page<JobExecution> page = page(kind, random, lowest, highest);
                nanos.get(kind.name())[i] = System.nanoTime() - started;
                if (!full(kind, page)) {
                    wrong.merge(kind.name(), 1L, Long::sum);
                }
                started = System.nanoTime();
                JsonNode body = httpPage(kind, random, lowest, highest, true);
                httpNanos.get(kind.name())[i] = System.nanoTime() - started;
                if (body.path("items").size() != config.pageSize() || !body.path("next").isTextual()) {
                    wrong.merge(kind.name(), 1L, Long::sum);
                }
            }
        }
        StatementCounts timed = window.stop();
        Map<String, Latencies> serverTimes = serverTimes(earlierLogLines);

        JsonLine line = JsonLine.workload(name()).put("executions", stored).put("loadSeconds", loadSeconds)
                .put("pageSize", config.pageSize()).put("samples", config.samples());
        for (Kind kind : kinds) {
            StatementCounter.Window probe = statements.start();
            page(kind, random, lowest, highest);
            StatementCounts counts = probe.stop();
            List<String> selects = counts.queries("SELECT");
            boolean oneStatement = selects.size() == 1 && counts.jdbcStatements() == 1;
            Latencies latencies = new Latencies(nanos.get(kind.name()));
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("p50Micros", latencies.percentileMicros(50));
            figures.put("p99Micros", latencies.percentileMicros(99));
            figures.put("jdbcStatementsPerPage", counts.jdbcStatements());
            Latencies overHttp = new Latencies(httpNanos.get(kind.name()));
            figures.put("httpP50Micros", overHttp.percentileMicros(50));
            figures.put("httpP99Micros", overHttp.percentileMicros(99));
            Latencies atServer = serverTimes.get(kind.name());
            if (atServer != null) {
                figures.put("serverHttpP50Millis", atServer.percentileMicros(50) / 1000);
                figures.put("serverHttpP99Millis", atServer.percentileMicros(99) / 1000);
            }
            if (oneStatement) {
                StatementCounts.QueryStats server = timed.byQuery().get(selects.get(0));
                figures.put("serverMeanMicros", server.meanExecMicros());
                figures.put("serverMaxMicros", server.maxExecMillis() * 1_000);
                QueryPlans.Plan plan = plans.genericPlanOfAnyValues(selects.get(0));
                figures.put("plan", plan.nodes());
                line.require(plan.indexed(), kind.name() + " is served by an index");
            }
            line.put(kind.name(), figures).require(oneStatement, kind.name() + " is one statement a page")
                    .require(wrong.get(kind.name()) == 0, kind.name() + " pages are full and in order");
        }
        return line.require(stored == config.executions(), "the whole history is stored");
    }

    private final PageCursor[] deepCursors = new PageCursor[1024];

    private Page<JobExecution> page(Kind kind, SplittableRandom random, long lowest, long highest) {
        PageRequest request = cursor(kind, random, lowest, highest)
                .map(cursor -> PageRequest.after(cursor, config.pageSize()))
                .orElse(PageRequest.first(config.pageSize()));
        return QuarkusTransaction.requiringNew().call(() -> repository.findJobExecutions(kind.query(), request));
    }

    /**
     * Where a page of this kind starts: the newest execution, or a cursor between a quarter and three
     * quarters down the history, so that many rows lie newer than the page and enough older ones for
     * a full page of the rarest status.
     */
    private Optional<PageCursor> cursor(Kind kind, SplittableRandom random, long lowest, long highest) {
        return kind.deep() ? Optional.of(deepCursors[random.nextInt(deepCursors.length)]) : Optional.empty();
    }

    /**
     * The time the HTTP server took for each timed request, from its access log (pattern
     * {@code %D %r}: milliseconds, then the request line), by sample kind; empty without the log.
     */
    private Map<String, Latencies> serverTimes(long earlierLines) {
        Map<String, Latencies> times = new LinkedHashMap<>();
        if (accessLog.isEmpty() || !Files.exists(accessLog.get())) {
            return times;
        }
        Map<String, List<Long>> byKind = new LinkedHashMap<>();
        try (Stream<String> lines = Files.lines(accessLog.get())) {
            lines.skip(earlierLines).forEach(line -> {
                Matcher matcher = ACCESS_LINE.matcher(line);
                if (matcher.find()) {
                    byKind.computeIfAbsent(matcher.group(2), unused -> new ArrayList<>())
                            .add(Long.parseLong(matcher.group(1)) * 1_000_000);
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the access log " + accessLog.get(), e);
        }
        byKind.forEach((kind, nanos) -> times.put(kind, new Latencies(nanos.stream().mapToLong(Long::longValue)
                .toArray())));
        return times;
    }

    /** The lines the access log holds now (earlier runs and the warm-up), skipped when it is read. */
    private long accessLogLines() {
        if (accessLog.isEmpty() || !Files.exists(accessLog.get())) {
            return 0;
        }
        try (Stream<String> lines = Files.lines(accessLog.get())) {
            return lines.count();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the access log " + accessLog.get(), e);
        }
    }

    /** The same page through the REST API: its JSON body. */
    private JsonNode httpPage(Kind kind, SplittableRandom random, long lowest, long highest, boolean timed) {
        StringBuilder query = new StringBuilder("?size=").append(config.pageSize());
        if (timed) {
            // not a parameter of the endpoint, which ignores it: it names the sample in the access log
            query.append("&sample=").append(kind.name());
        }
        kind.query().job().ifPresent(job -> query.append("&job=").append(URLEncoder.encode(job.value(),
                StandardCharsets.UTF_8)));
        kind.query().statuses().forEach(status -> query.append("&status=").append(status.name()));
        kind.query().createdFrom().ifPresent(from -> query.append("&createdFrom=").append(from));
        kind.query().createdBefore().ifPresent(before -> query.append("&createdBefore=").append(before));
        kind.query().owner().ifPresent(owner -> query.append("&owner=").append(owner.value()));
        cursor(kind, random, lowest, highest).ifPresent(cursor -> query.append("&cursor=").append(cursor.value()));
        HttpRequest request = HttpRequest.newBuilder(URI.create(api + query.toString()))
                .header("Authorization", authorization).header("Accept", "application/json").GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + request.uri() + " answered " + response.statusCode() + ": "
                        + response.body());
            }
            return json.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A page of the seeded history is full, newest first, and every execution matches the query. */
    private boolean full(Kind kind, Page<JobExecution> page) {
        List<JobExecution> items = page.items();
        if (items.size() != config.pageSize() || page.next().isEmpty()) {
            return false;
        }
        for (int i = 0; i < items.size(); i++) {
            JobExecution execution = items.get(i);
            JobExecution previous = i == 0 ? null : items.get(i - 1);
            if (previous != null && (execution.createdAt().isAfter(previous.createdAt())
                    || execution.createdAt().equals(previous.createdAt())
                            && execution.id().value() >= previous.id().value())) {
                return false;
            }
            ExecutionQuery query = kind.query();
            if (query.createdFrom().isPresent() && execution.createdAt().isBefore(query.createdFrom().get())
                    || query.createdBefore().isPresent() && !execution.createdAt().isBefore(query.createdBefore().get())) {
                return false;
            }
            if (kind.query().job().isPresent() && !kind.query().job().get().equals(execution.jobName())) {
                return false;
            }
            if (!kind.query().statuses().isEmpty() && !kind.query().statuses().contains(execution.status())) {
                return false;
            }
        }
        return true;
    }
}
