package io.durablebatch.deployment.devservices;

import static io.durablebatch.deployment.devservices.LocalPostgresChild.directory;
import static io.durablebatch.deployment.devservices.LocalPostgresChild.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import io.durablebatch.deployment.devservices.DurableBatchDevServicesConfig.Binaries;

/**
 * The local server's lifecycle with real processes: a close stops it and deletes its data, a
 * {@code kill -9} of its JVM does too (the watchdog), and what a killed watchdog leaves is reaped at
 * the next start. The embedded binaries run where no installation is wanted.
 */
class LocalPostgresLifecycleTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Test
    void closeStopsTheServerAndDeletesItsDirectory() throws Exception {
        LocalPostgres server = new LocalPostgres(settings(Binaries.INSTALLED));
        server.start();
        Path directory = directory(server);
        ProcessHandle postmaster = postmaster(directory);
        assertEquals("PostgreSQL", version(server).split(" ")[0]);

        server.close();

        assertFalse(postmaster.isAlive(), "closed: the server is stopped");
        assertFalse(Files.exists(directory), "closed: its data is deleted");
    }

    @Test
    void killingItsJvmStopsTheServerAndDeletesItsDirectory() throws Exception {
        Process child = child();
        Path directory = ready(child);
        ProcessHandle postmaster = postmaster(directory);

        child.destroyForcibly(); // SIGKILL: no shutdown hook runs

        await(() -> !postmaster.isAlive(), "the watchdog stops the server of a killed JVM");
        await(() -> !Files.exists(directory), "the watchdog deletes the data of a killed JVM");
    }

    @Test
    void theNextStartReapsWhatAKilledWatchdogLeft() throws Exception {
        Process child = child();
        Path directory = ready(child);
        ProcessHandle postmaster = postmaster(directory);
        List<ProcessHandle> watchdogs = child.descendants()
                .filter(process -> process.info().arguments().map(List::of).orElse(List.of())
                        .contains("durable-batch-watchdog"))
                .toList();
        assertEquals(1, watchdogs.size(), "one watchdog per server");

        watchdogs.get(0).destroyForcibly();
        child.destroyForcibly();
        child.waitFor();
        Thread.sleep(2000);
        assertTrue(postmaster.isAlive(), "with its watchdog killed too, the server outlives its JVM");

        ServerDirectory.reapOrphans();

        assertFalse(postmaster.isAlive(), "reaped: the orphan is stopped");
        assertFalse(Files.exists(directory), "reaped: its data is deleted");
    }

    @Test
    void theEmbeddedBinariesRunWhereNoInstallationIsWanted() throws Exception {
        LocalPostgres server = new LocalPostgres(settings(Binaries.EMBEDDED));
        server.start();
        try {
            assertTrue(version(server).startsWith("PostgreSQL 14.22"), version(server));
            assertTrue(postmaster(directory(server)).info().command().orElseThrow()
                    .startsWith(Path.of(System.getProperty("user.home"), ".cache", "durable-batch").toString()),
                    "runs the unpacked binaries");
        } finally {
            server.close();
        }
    }

    private static String version(LocalPostgres server) throws Exception {
        return LocalPostgresChild.query(server, "select version()");
    }

    private static Process child() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), LocalPostgresChild.class.getName(),
                Binaries.INSTALLED.name()).redirectErrorStream(true).start();
    }

    private static Path ready(Process child) throws Exception {
        BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.startsWith("READY ")) {
                Thread drain = new Thread(() -> output.lines().forEach(ignored -> {
                }));
                drain.setDaemon(true);
                drain.start();
                return Path.of(line.substring("READY ".length()));
            }
            seen.append(line).append(File.separatorChar == '/' ? "\n" : "\r\n");
        }
        throw new AssertionError("the child ended before its server was ready:\n" + seen);
    }

    private static ProcessHandle postmaster(Path directory) throws Exception {
        long pid = Long.parseLong(Files.readAllLines(directory.resolve("data").resolve("postmaster.pid")).get(0).trim());
        ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
        assertTrue(postmaster.isAlive());
        return postmaster;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " within " + PATIENCE.toSeconds() + " s");
            }
            Thread.sleep(100);
        }
    }
}
