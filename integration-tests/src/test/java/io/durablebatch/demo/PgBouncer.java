package io.durablebatch.demo;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PgBouncer of its own in front of a {@link PrivatePostgres} cluster, on loopback, in transaction
 * pooling mode: each transaction of a client may run on another server connection, and a server
 * connection serves many clients in turn. Its directory (configuration, log) is a temporary one the
 * server's OS user can reach; {@link #close()} stops it and keeps its log under
 * {@code target/torture/}. Run as root, it runs as the {@code postgres} OS user (it refuses root).
 * <p>
 * The binary is {@code -Dpgbouncer.bin}, else {@code pgbouncer} on the PATH or in
 * {@code /usr/sbin} (Debian's package {@code pgbouncer}, which {@code .ci/run} installs).
 */
final class PgBouncer implements AutoCloseable {

    private final String name;
    private final Path directory;
    private final Process process;
    private final int port;

    private PgBouncer(String name, Path directory, Process process, int port) {
        this.name = name;
        this.directory = directory;
        this.process = process;
        this.port = port;
    }

    /** The PgBouncer binary, if this machine has one. */
    static Optional<Path> binary() {
        String configured = System.getProperty("pgbouncer.bin", "");
        if (!configured.isBlank()) {
            return Optional.of(Path.of(configured)).filter(Files::isExecutable);
        }
        List<Path> candidates = new ArrayList<>();
        for (String directory : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!directory.isBlank()) {
                candidates.add(Path.of(directory, "pgbouncer"));
            }
        }
        candidates.add(Path.of("/usr/sbin/pgbouncer"));
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /**
     * Starts a PgBouncer in front of {@code cluster}'s {@code demo} database with {@code serverConnections}
     * server connections in its pool, and waits until it accepts connections.
     */
    static PgBouncer start(String name, PrivatePostgres cluster, int serverConnections) throws Exception {
        Path binary = binary().orElseThrow(() -> new IllegalStateException("no pgbouncer binary"));
        Path directory = Files.createTempDirectory("pgbouncer-" + name + "-");
        int port = ChildApplication.freePort();
        Files.writeString(directory.resolve("userlist.txt"), "\"postgres\" \"\"\n");
        Files.writeString(directory.resolve("pgbouncer.ini"), """
                [databases]
                %1$s = host=127.0.0.1 port=%2$d dbname=%1$s
                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = %3$d
                unix_socket_dir =
                auth_type = trust
                auth_file = %4$s/userlist.txt
                pool_mode = transaction
                default_pool_size = %5$d
                max_client_conn = 400
                logfile = %4$s/pgbouncer.log
                pidfile = %4$s/pgbouncer.pid
                admin_users = postgres
                """.formatted(PrivatePostgres.DATABASE, cluster.port(), port, directory, serverConnections));
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            exec("chown", "-R", "postgres:", directory.toString());
            command.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        command.addAll(List.of(binary.toString(), directory.resolve("pgbouncer.ini").toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(directory.resolve("pgbouncer.out").toFile()).start();
        PgBouncer bouncer = new PgBouncer(name, directory, process, port);
        try {
            bouncer.awaitListening(Duration.ofSeconds(20));
            return bouncer;
        } catch (Exception | Error e) {
            bouncer.close();
            throw e;
        }
    }

    /** The JDBC URL of the {@code demo} database through this pooler, no server-side prepared statements. */
    String jdbcUrl() {
        // PgBouncer before 1.21 cannot track named prepared statements: with the driver's default
        // (server-prepared from the fifth use, COMMIT included) another client's S_1 collides.
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + PrivatePostgres.DATABASE + "?prepareThreshold=0";
    }

    private void awaitListening(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("pgbouncer exited with " + process.exitValue() + ":\n" + log());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("pgbouncer did not listen on " + port + " within " + timeout + ":\n" + log());
    }

    /** What PgBouncer logged (its log file and its output). */
    String log() throws IOException {
        StringBuilder log = new StringBuilder();
        for (String file : List.of("pgbouncer.out", "pgbouncer.log")) {
            Path path = directory.resolve(file);
            if (Files.exists(path)) {
                log.append(Files.readString(path));
            }
        }
        return log.toString();
    }

    @Override
    public void close() throws Exception {
        // the pooler itself, by the pid it wrote (runuser need not pass a signal on), then its launcher
        Path pidFile = directory.resolve("pgbouncer.pid");
        if (Files.exists(pidFile)) {
            exec("kill", Files.readString(pidFile).trim());
        }
        process.destroy();
        process.waitFor(20, TimeUnit.SECONDS);
        Path kept = Path.of("target", "torture", name + "-pgbouncer.log");
        Files.createDirectories(kept.getParent());
        Files.writeString(kept, log());
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static void exec(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }

}
