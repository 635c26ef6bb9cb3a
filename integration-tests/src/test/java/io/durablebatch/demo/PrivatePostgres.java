package io.durablebatch.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of its own that a test may restart, stop and start at will, which it must
 * never do to a shared one: {@code initdb} into a directory under {@code target/torture-pg/} (trust
 * authentication, listening on 127.0.0.1 only, its socket in that directory; under the temporary
 * directory where the server's OS user cannot reach {@code target/}), and a database
 * {@code demo}. {@link #close()} stops it and removes its directory, keeping its server log under
 * {@code target/torture/}; a JVM shutdown hook does the same if the test never gets there, and the
 * next cluster removes those a killed test JVM left behind.
 * <p>
 * The binaries are those of {@code -Dtorture.pg.bin}, else of the newest
 * {@code /usr/lib/postgresql/<version>/bin}, else of {@code pg_config --bindir}. Run as root, the
 * server runs as the {@code postgres} OS user (it refuses to run as root).
 */
final class PrivatePostgres implements AutoCloseable {

    static final String DATABASE = "demo";

    private static final Path ROOT = Path.of("target", "torture-pg").toAbsolutePath();

    /** The clusters of this JVM, which are no leftovers. */
    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

    private final String name;
    private final Path bin;
    private final Path directory;
    private final Path sockets;
    private final int port;
    private final Thread cleanup;
    private boolean closed;

    private PrivatePostgres(String name, Path bin, Path directory, Path sockets, int port) {
        this.name = name;
        this.bin = bin;
        this.directory = directory;
        this.sockets = sockets;
        this.port = port;
        this.cleanup = new Thread(this::destroy, "private-postgres-cleanup-" + name);
    }

    /** Creates, starts and prepares a new cluster; {@code name} names its directory and kept log. */
    static PrivatePostgres start(String name) throws Exception {
        Path bin = binaries();
        removeLeftovers(bin);
        Path directory = clusterDirectory(name + "-" + UUID.randomUUID().toString().substring(0, 8));
        // a Unix socket path has at most 107 bytes: a deep checkout puts the socket under /tmp instead
        Path sockets = directory.toString().length() + "/.s.PGSQL.65535".length() < 100 ? directory
                : Files.createTempDirectory("pg-");
        PrivatePostgres cluster = new PrivatePostgres(name, bin, directory, sockets, ChildApplication.freePort());
        LIVE.add(directory);
        Runtime.getRuntime().addShutdownHook(cluster.cleanup);
        try {
            if (runsAsRoot()) {
                cluster.run(Duration.ofSeconds(30), "chown", "-R", "postgres:", directory.toString(), sockets.toString());
            }
            cluster.asServerUser(Duration.ofSeconds(120), bin.resolve("initdb").toString(), "-D",
                    cluster.data().toString(), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C",
                    "--no-sync");
            cluster.start();
            try (Connection connection = DriverManager.getConnection(cluster.jdbcUrl("postgres"), "postgres", "");
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + DATABASE);
            }
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * A new directory under target/torture-pg/, unless the server's OS user cannot reach it there (a
     * checkout under /root, say): then under the temporary directory.
     */
    private static Path clusterDirectory(String unique) throws IOException, InterruptedException {
        Files.createDirectories(ROOT);
        if (!runsAsRoot() || new ProcessBuilder("runuser", "-u", "postgres", "--", "test", "-x", ROOT.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0) {
            return Files.createDirectories(ROOT.resolve(unique));
        }
        return Files.createTempDirectory("torture-pg-" + unique + "-");
    }

    /** The JDBC URL of the {@code demo} database. */
    String jdbcUrl() {
        return jdbcUrl(DATABASE);
    }

    private String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    DemoDatabase database() {
        return DemoDatabase.at(jdbcUrl());
    }

    int port() {
        return port;
    }

    /** Starts the stopped server and waits until it accepts connections. */
    void start() throws IOException, InterruptedException {
        pgCtl("start", "-l", directory.resolve("postgres.log").toString(), "-o",
                "-p " + port + " -h 127.0.0.1 -k '" + sockets + "'");
    }

    /** Stops the server like a crash (immediate: no checkpoint, clients cut off; recovery at the next start). */
    void crash() throws IOException, InterruptedException {
        pgCtl("stop", "-m", "immediate");
    }

    /** Restarts the server like an operator (fast: clients cut off, open transactions rolled back). */
    void restart() throws IOException, InterruptedException {
        pgCtl("restart", "-m", "fast");
    }

    private void pgCtl(String action, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString(), action, "-D", data().toString(),
                "-w", "-t", "60"));
        command.addAll(List.of(options));
        asServerUser(Duration.ofSeconds(90), command.toArray(String[]::new));
    }

    private Path data() {
        return directory.resolve("data");
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            destroy();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs destroy() again, which finds nothing left
            }
        }
    }

    private synchronized void destroy() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (Files.exists(data().resolve("postmaster.pid"))) {
                pgCtl("stop", "-m", "immediate");
            }
        } catch (Exception e) {
            System.err.println("Stopping the private PostgreSQL cluster in " + directory + " failed: " + e);
        }
        try {
            Path log = directory.resolve("postgres.log");
            if (Files.exists(log)) {
                Path kept = Path.of("target", "torture", name + "-postgres.log");
                Files.createDirectories(kept.getParent());
                Files.copy(log, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            delete(directory);
            delete(sockets);
            LIVE.remove(directory);
        } catch (IOException e) {
            System.err.println("Removing the private PostgreSQL cluster in " + directory + " failed: " + e);
        }
    }

    /** Clusters a killed test JVM left running under target/torture-pg/: stopped and removed. */
    private static void removeLeftovers(Path bin) throws IOException, InterruptedException {
        if (!Files.isDirectory(ROOT)) {
            return;
        }
        List<Path> leftovers;
        try (Stream<Path> children = Files.list(ROOT)) {
            leftovers = children.filter(Files::isDirectory).filter(dir -> !LIVE.contains(dir)).toList();
        }
        for (Path leftover : leftovers) {
            if (Files.exists(leftover.resolve("data").resolve("postmaster.pid"))) {
                new PrivatePostgres(leftover.getFileName().toString(), bin, leftover, leftover, 0).destroy();
            } else {
                delete(leftover);
            }
        }
    }

    private static void delete(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static Path binaries() throws IOException, InterruptedException {
        String configured = System.getProperty("torture.pg.bin", "");
        if (!configured.isBlank()) {
            return requireInitdb(Path.of(configured));
        }
        Path installed = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(installed)) {
            try (Stream<Path> versions = Files.list(installed)) {
                List<Path> candidates = versions.map(version -> version.resolve("bin"))
                        .filter(dir -> Files.isExecutable(dir.resolve("initdb")))
                        .sorted(Comparator.comparing((Path dir) -> versionOf(dir.getParent())).reversed()).toList();
                if (!candidates.isEmpty()) {
                    return candidates.get(0);
                }
            }
        }
        try {
            Process pgConfig = new ProcessBuilder("pg_config", "--bindir").redirectErrorStream(true).start();
            String output = new String(pgConfig.getInputStream().readAllBytes()).trim();
            if (pgConfig.waitFor() == 0) {
                return requireInitdb(Path.of(output));
            }
        } catch (IOException e) {
            // no pg_config on the PATH either
        }
        throw new IllegalStateException("No PostgreSQL server binaries found for the private cluster: install them "
                + "(e.g. postgresql-15) or name their directory with -Dtorture.pg.bin=/usr/lib/postgresql/15/bin");
    }

    private static int versionOf(Path directory) {
        try {
            return Integer.parseInt(directory.getFileName().toString().replaceAll("\\D.*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Path requireInitdb(Path bin) {
        if (!Files.isExecutable(bin.resolve("initdb")) || !Files.isExecutable(bin.resolve("pg_ctl"))) {
            throw new IllegalStateException(bin + " has no initdb and pg_ctl (torture.pg.bin)");
        }
        return bin;
    }

    private static boolean runsAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** Runs a server binary as the OS user that may run the server: postgres when this JVM is root. */
    private void asServerUser(Duration timeout, String... command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (runsAsRoot()) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(List.of(command));
        run(timeout, full.toArray(String[]::new));
    }

    private void run(Duration timeout, String... command) throws IOException, InterruptedException {
        // output to a file, not a pipe: the server pg_ctl starts must not hold our pipe open
        Path output = Files.createTempFile("private-postgres", ".out");
        try {
            Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout + ":\n"
                        + Files.readString(output));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed with exit code "
                        + process.exitValue() + ":\n" + Files.readString(output));
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
