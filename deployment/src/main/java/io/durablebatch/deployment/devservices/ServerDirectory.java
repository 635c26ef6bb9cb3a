package io.durablebatch.deployment.devservices;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jboss.logging.Logger;

/**
 * The temporary directory of a local server (its cluster, logs and socket) and the processes run in
 * it. The directory names the JVM that owns it, and a watchdog process stops the server and deletes
 * the directory once that JVM is gone, even after a {@code kill -9}; a later start reaps what a
 * killed watchdog left.
 */
final class ServerDirectory {

    static final String PREFIX = "durable-batch-postgres-";
    private static final String OWNER = "owner.pid";
    private static final Logger LOG = Logger.getLogger(ServerDirectory.class);

    private final Path root;
    private final List<String> unprivileged;
    private Process watchdog;

    private ServerDirectory(Path root, List<String> unprivileged) {
        this.root = root;
        this.unprivileged = unprivileged;
    }

    /** A new directory owned by this JVM. */
    static ServerDirectory create() {
        try {
            Path root = Files.createTempDirectory(PREFIX);
            Files.writeString(root.resolve(OWNER), String.valueOf(ProcessHandle.current().pid()));
            return new ServerDirectory(root, Unprivileged.prefix(root));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the local PostgreSQL's directory", e);
        }
    }

    Path root() {
        return root;
    }

    Path data() {
        return root.resolve("data");
    }

    Path file(String name) {
        return root.resolve(name);
    }

    /** Runs a command to its end, failing with its output when it fails. */
    void run(Path executable, List<String> arguments, Path log) {
        Process process = spawn(executable, arguments, log);
        try {
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(executable + " did not end within 2 minutes: " + tail(log));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("Interrupted while " + executable + " ran", e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(executable + " failed (exit " + process.exitValue() + "): " + tail(log));
        }
    }

    /** Starts a command, as an unprivileged user when this JVM runs as root, its output to a log. */
    Process spawn(Path executable, List<String> arguments, Path log) {
        List<String> command = new ArrayList<>(unprivileged);
        command.add(executable.toString());
        command.addAll(arguments);
        try {
            return new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command, e);
        }
    }

    /**
     * Starts the watchdog: a shell that waits for this JVM to end, then stops the server (fast
     * shutdown) and deletes the directory, unless the directory is gone already (a clean close).
     */
    void watchOver(Process server) {
        String script = """
                while kill -0 "$1" 2>/dev/null; do sleep 1; done
                if [ -d "$3" ]; then
                    kill -INT "$2" 2>/dev/null
                    while kill -0 "$2" 2>/dev/null; do sleep 0.2; done
                    rm -rf "$3"
                fi
                """;
        try {
            watchdog = new ProcessBuilder("sh", "-c", script, "durable-batch-watchdog",
                    String.valueOf(ProcessHandle.current().pid()), String.valueOf(server.pid()), root.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the local PostgreSQL's watchdog", e);
        }
    }

    /** Stops the server (fast shutdown, then a kill after 30 s) and its watchdog, and deletes the directory. */
    void stop(Process server) {
        if (watchdog != null) {
            watchdog.destroy();
        }
        if (server != null) {
            stopServer(server.toHandle());
        }
        delete(root);
    }

    /** The last lines of a log of this directory, for an error message. */
    String tail(String name) {
        return tail(file(name));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(System.lineSeparator(), lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /**
     * Stops the servers of directories whose JVM is gone (their watchdog was killed too) and deletes
     * those directories.
     */
    static void reapOrphans() {
        Path temp = Path.of(System.getProperty("java.io.tmpdir"));
        try (DirectoryStream<Path> directories = Files.newDirectoryStream(temp, PREFIX + "*")) {
            for (Path directory : directories) {
                Optional<Long> owner = pid(directory.resolve(OWNER));
                if (owner.isPresent() && ProcessHandle.of(owner.get()).filter(ProcessHandle::isAlive).isEmpty()) {
                    pid(directory.resolve("data").resolve("postmaster.pid")).flatMap(ProcessHandle::of)
                            .filter(ServerDirectory::isPostgres).ifPresent(ServerDirectory::stopServer);
                    delete(directory);
                    LOG.infof("Durable Batch removed the local PostgreSQL %s, left by process %d", directory, owner.get());
                }
            }
        } catch (IOException e) {
            LOG.debugf(e, "Could not look for orphaned local PostgreSQL servers in %s", temp);
        }
    }

    private static boolean isPostgres(ProcessHandle process) {
        return process.info().command().map(command -> command.endsWith(File.separator + "postgres")).orElse(false);
    }

    private static void stopServer(ProcessHandle server) {
        try {
            // SIGINT: PostgreSQL's fast shutdown (SIGTERM would wait for every client to leave).
            new ProcessBuilder("kill", "-INT", String.valueOf(server.pid())).start().waitFor(10, TimeUnit.SECONDS);
            server.onExit().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.destroyForcibly();
        } catch (Exception e) {
            server.destroyForcibly();
        }
    }

    private static Optional<Long> pid(Path file) {
        try {
            return Optional.of(Long.parseLong(Files.readAllLines(file).get(0).trim()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static void delete(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            LOG.debugf(e, "Could not delete %s", directory);
        }
    }
}
