package io.durablebatch.benchmarks.peer;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import javax.sql.DataSource;

/**
 * The peer benchmark's workloads, whichever runtime launches the jobs (plain Java, so that an
 * application without Quarkus runs the same ones), each printed as one JSON line on stdout.
 * <ul>
 * <li>{@code chunk}: the chunk job over {@code warmupItems}, then, timed, over {@code items}, polled every
 * 100 ms;
 * <li>{@code launches}: {@code warmupLaunches}, then, timed, {@code launches} sequential starts of the
 * one-batchlet job, each polled (every millisecond) until it ended;
 * <li>{@code launches-concurrent}: the same after the same warm-up, but {@code launches} starts spread
 * over {@code threads} threads that each launch and await one job after another;
 * <li>{@code oneshot}: one launch of the one-batchlet job, awaited, then exit (the caller times the
 * whole process).
 * </ul>
 * With {@code stats} the runtime's statements ({@code pg_stat_statements}, without transaction control
 * and the writer's inserts) and commits ({@code pg_stat_database}) of the timed part are counted too: the
 * counters are read after a pause in which every connection's backend reports its figures.
 * <p>
 * With the system property {@code peer.thread-cpu=true} (Linux) the JVM's CPU over the timed part is
 * also split by thread ({@code cpuMillisPerChunkByThread}: the threads' names from {@code /proc}, digits
 * as N, so the GC's and the JIT compiler's threads count too), with the collections, their pauses and
 * the bytes the Java threads allocated, per unit: where a runtime's CPU per unit goes that a profile of
 * the Java threads does not show.
 */
public final class PeerWorkloads {

    /** The sizes of the workloads ({@code peer.*} in the applications' configuration). */
    public record Sizes(long items, long warmupItems, int launches, int warmupLaunches, int threads, boolean stats) {
    }

    private static final long STATS_PAUSE_MILLIS = 11_000;
    // A launch is polled as a caller awaiting a short job would; a job of many chunks, as one awaiting
    // a long job would: the chunk figures are then the chunks' own.
    private static final long LAUNCH_POLL_MILLIS = 1;
    private static final long CHUNK_POLL_MILLIS = 100;

    private final DataSource dataSource;
    private final PeerLaunches launches;
    private final Sizes sizes;

    public PeerWorkloads(DataSource dataSource, PeerLaunches launches, Sizes sizes) {
        this.dataSource = dataSource;
        this.launches = launches;
        this.sizes = sizes;
    }

    /** Runs the workload and prints its JSON line, labelled with the runtime. */
    public void run(String runtime, String workload) throws Exception {
        execute("CREATE TABLE IF NOT EXISTS peer_item (id bigint PRIMARY KEY, name varchar(40) NOT NULL, "
                + "amount bigint NOT NULL)");
        StringBuilder line = new StringBuilder("{\"runtime\":\"").append(runtime).append("\",\"workload\":\"")
                .append(workload).append('"');
        switch (workload) {
            case "chunk" -> chunk(line);
            case "launches" -> launches(line);
            case "launches-concurrent" -> concurrentLaunches(line);
            case "oneshot" -> {
                long id = launch("peer-batchlet", new Properties(), LAUNCH_POLL_MILLIS);
                line.append(",\"completed\":").append(launches.completed(id));
            }
            default -> throw new IllegalArgumentException("unknown workload " + workload);
        }
        System.out.println(line.append('}'));
    }

    private void chunk(StringBuilder line) throws Exception {
        runChunk(sizes.warmupItems());
        Window window = new Window();
        long nanos = runChunk(sizes.items());
        window.stop(line, sizes.items() / 1000, "Chunk");
        line.append(String.format(Locale.ROOT, ",\"items\":%d,\"itemsPerSecond\":%.0f", sizes.items(),
                sizes.items() / (nanos / 1e9)));
        line.append(",\"rows\":").append(queryLong("SELECT count(*) FROM peer_item"));
    }

    private long runChunk(long count) throws Exception {
        execute("TRUNCATE peer_item");
        Properties parameters = new Properties();
        parameters.setProperty("items", Long.toString(count));
        long started = System.nanoTime();
        long id = launch("peer-chunk", parameters, CHUNK_POLL_MILLIS);
        long nanos = System.nanoTime() - started;
        if (!launches.completed(id)) {
            throw new IllegalStateException("the chunk job did not complete");
        }
        return nanos;
    }

    private void launches(StringBuilder line) throws Exception {
        warmUpLaunches();
        int count = sizes.launches();
        long[] nanos = new long[count];
        Window window = new Window();
        long started = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long launchStarted = System.nanoTime();
            launch("peer-batchlet", new Properties(), LAUNCH_POLL_MILLIS);
            nanos[i] = System.nanoTime() - launchStarted;
        }
        long total = System.nanoTime() - started;
        window.stop(line, count, "Launch");
        appendLaunchRates(line, nanos, total);
    }

    /**
     * Each thread launches and awaits its share one after another; a launch that throws or does not end
     * COMPLETED is a failure (counted, not retried), as a caller that starts jobs from many threads sees it.
     */
    private void concurrentLaunches(StringBuilder line) throws Exception {
        warmUpLaunches();
        int threads = sizes.threads();
        int count = sizes.launches() / threads * threads;
        long[] nanos = new long[count];
        long[] ids = new long[count];
        AtomicInteger failures = new AtomicInteger();
        AtomicReference<Exception> firstFailure = new AtomicReference<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            Window window = new Window();
            long started = System.nanoTime();
            List<Future<?>> ends = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t * (count / threads);
                ends.add(pool.submit(() -> {
                    for (int i = first; i < first + count / threads; i++) {
                        long launchStarted = System.nanoTime();
                        try {
                            ids[i] = launch("peer-batchlet", new Properties(), LAUNCH_POLL_MILLIS);
                        } catch (Exception e) {
                            ids[i] = -1;
                            failures.incrementAndGet();
                            firstFailure.compareAndSet(null, e);
                        }
                        nanos[i] = System.nanoTime() - launchStarted;
                    }
                }));
            }
            for (Future<?> end : ends) {
                end.get();
            }
            long total = System.nanoTime() - started;
            window.stop(line, count, "Launch");
            line.append(",\"threads\":").append(threads);
            appendLaunchRates(line, nanos, total);
        } finally {
            pool.shutdown();
        }
        for (long id : ids) {
            if (id != -1 && !launches.completed(id)) {
                failures.incrementAndGet();
            }
        }
        line.append(",\"failures\":").append(failures.get());
        if (firstFailure.get() != null) {
            // what the caller was told (its class only: a message would need escaping in JSON)
            line.append(",\"firstFailure\":\"").append(firstFailure.get().getClass().getName()).append('"');
        }
    }

    private void warmUpLaunches() throws Exception {
        for (int i = 0; i < sizes.warmupLaunches(); i++) {
            launch("peer-batchlet", new Properties(), LAUNCH_POLL_MILLIS);
        }
    }

    private static void appendLaunchRates(StringBuilder line, long[] nanos, long totalNanos) {
        int count = nanos.length;
        Arrays.sort(nanos);
        line.append(String.format(Locale.ROOT, ",\"launches\":%d,\"jobsPerSecond\":%.1f,\"p50Millis\":%.2f,"
                + "\"p95Millis\":%.2f", count, count / (totalNanos / 1e9), nanos[count / 2] / 1e6,
                nanos[(int) (count * 0.95)] / 1e6));
    }

    private long launch(String job, Properties parameters, long pollMillis) throws Exception {
        return launches.launchAndAwait(job, parameters, pollMillis);
    }

    /** The JVM's CPU time and, with {@code stats}, the database's counters over the timed part. */
    private final class Window {

        private final long cpuNanos;
        private final long[] counters;
        private final ThreadCpu threads;

        Window() throws Exception {
            counters = sizes.stats() ? counters() : null;
            threads = Boolean.getBoolean("peer.thread-cpu") ? new ThreadCpu() : null;
            cpuNanos = cpuNanos();
        }

        void stop(StringBuilder line, long units, String unit) throws Exception {
            long cpu = cpuNanos() - cpuNanos;
            line.append(String.format(Locale.ROOT, ",\"cpuMillisPer%s\":%.3f", unit, cpu / 1e6 / units));
            if (threads != null) {
                threads.stop(line, units, unit);
            }
            if (counters != null) {
                long[] after = counters();
                line.append(String.format(Locale.ROOT, ",\"statementsPer%s\":%.2f,\"commitsPer%s\":%.2f", unit,
                        (after[0] - counters[0]) / (double) units, unit, (after[1] - counters[1]) / (double) units));
            }
        }
    }

    /**
     * The CPU of each thread of this process ({@code /proc/self/task}: Java threads and the JVM's own),
     * the collections and the Java threads' allocations, from its creation to {@link #stop}.
     */
    private static final class ThreadCpu {

        private final long began = System.currentTimeMillis();
        private final Map<String, Long> ticks = ticks();
        private final long[] collections = collections();
        private final Map<Long, Long> allocated = allocated();

        void stop(StringBuilder line, long units, String unit) throws IOException {
            Map<String, Long> now = ticks();
            // /proc counts in USER_HZ ticks, which Linux fixes at 100 a second for user space
            double millisPerTick = 10.0;
            Map<String, Double> byName = new TreeMap<>();
            now.forEach((task, at) -> {
                // a thread started in the window counts whole; "task" is the tid and the name
                long used = at - ticks.getOrDefault(task, 0L);
                if (used > 0) {
                    byName.merge(task.substring(task.indexOf(' ') + 1).replaceAll("\\d+", "N"),
                            used * millisPerTick / units, Double::sum);
                }
            });
            line.append(",\"cpuMillisPer").append(unit).append("ByThread\":{");
            String separator = "";
            for (Map.Entry<String, Double> thread : byName.entrySet()) {
                line.append(separator).append('"').append(thread.getKey().replace("\"", "'")).append("\":")
                        .append(String.format(Locale.ROOT, "%.3f", thread.getValue()));
                separator = ",";
            }
            long[] gc = collections();
            line.append(String.format(Locale.ROOT, "},\"collectionsPer%s\":%.4f,\"collectionMillisPer%s\":%.3f,"
                    + "\"allocatedKBPer%s\":%.1f", unit, (gc[0] - collections[0]) / (double) units, unit,
                    (gc[1] - collections[1]) / (double) units, unit, allocatedSince(allocated) / 1024.0 / units));
            // for a recording of the same run (JFR) to be cut to the timed part
            line.append(",\"windowEpochMillis\":[").append(began).append(',').append(System.currentTimeMillis()).append(']');
        }

        /** utime + stime of each thread, by "tid name". */
        private static Map<String, Long> ticks() {
            Map<String, Long> ticks = new TreeMap<>();
            try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    try {
                        String stat = Files.readString(task.resolve("stat"));
                        // the name is between the first '(' and the last ')'; utime and stime are fields 14 and 15
                        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        ticks.put(task.getFileName() + " " + name, Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
                    } catch (NoSuchFileException ended) {
                        // the thread ended while listed
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("peer.thread-cpu needs /proc/self/task (Linux): " + e, e);
            }
            return ticks;
        }

        private static long[] collections() {
            long count = 0;
            long millis = 0;
            for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
                count += collector.getCollectionCount();
                millis += collector.getCollectionTime();
            }
            return new long[] { count, millis };
        }

        /** The bytes each live Java thread allocated so far, by thread id. */
        private static Map<Long, Long> allocated() {
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long[] ids = threads.getAllThreadIds();
            long[] bytes = threads.getThreadAllocatedBytes(ids);
            Map<Long, Long> allocated = new TreeMap<>();
            for (int i = 0; i < ids.length; i++) {
                if (bytes[i] >= 0) {
                    allocated.put(ids[i], bytes[i]);
                }
            }
            return allocated;
        }

        /** What the threads alive now allocated since {@code before}: a thread that ended took its count along. */
        private static long allocatedSince(Map<Long, Long> before) {
            long sum = 0;
            for (Map.Entry<Long, Long> thread : allocated().entrySet()) {
                sum += thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
            }
            return sum;
        }
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * The batch runtime's statements (without transaction control, the writer's inserts and these
     * reads) and the commits in this database so far.
     */
    private long[] counters() throws Exception {
        Thread.sleep(STATS_PAUSE_MILLIS);
        long statements = queryLong("SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s "
                + "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database() "
                + "AND s.query !~* '^\\s*(BEGIN|COMMIT|ROLLBACK|SET|SHOW|SAVEPOINT|RELEASE)' "
                + "AND s.query NOT LIKE '%pg_stat%' AND s.query NOT LIKE '%peer_item%'");
        long commits = queryLong("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()");
        return new long[] { statements, commits };
    }

    private long queryLong(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
