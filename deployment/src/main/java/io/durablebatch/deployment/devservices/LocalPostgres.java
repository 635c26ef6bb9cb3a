package io.durablebatch.deployment.devservices;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;

import org.jboss.logging.Logger;

import io.durablebatch.deployment.devservices.DurableBatchDevServicesConfig.Binaries;
import io.quarkus.deployment.builditem.Startable;

/**
 * A PostgreSQL server run from local binaries for one datasource: a fresh cluster in a temporary
 * directory, listening on 127.0.0.1, stopped and deleted when closed. The data lives as long as the
 * server: a dev-mode reload keeps it, a new JVM starts empty.
 */
final class LocalPostgres implements Startable {

    /** What identifies a server: Quarkus keeps a running one across reloads while these are equal. */
    record Settings(String dataSource, String username, String password, OptionalInt port, Binaries binaries,
            Optional<Path> path, String embeddedVersion) {
    }

    static final String DATABASE = "quarkus";
    private static final Logger LOG = Logger.getLogger(LocalPostgres.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Settings settings;
    private ServerDirectory directory;
    private Process server;
    private int port;

    LocalPostgres(Settings settings) {
        this.settings = settings;
    }

    @Override
    public void start() {
        ServerDirectory.reapOrphans();
        PostgresBinaries binaries = PostgresBinaries.locate(settings);
        directory = ServerDirectory.create();
        try {
            port = settings.port().orElseGet(LocalPostgres::freePort);
            directory.run(binaries.initdb(), List.of("-D", directory.data().toString(), "-U", settings.username(),
                    "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"), directory.file("initdb.log"));
            List<String> arguments = new ArrayList<>(List.of("-D", directory.data().toString(), "-p", String.valueOf(port),
                    "-h", "127.0.0.1", "-k", directory.root().toString()));
            // Throwaway data: no durability wanted, only speed.
            for (String setting : List.of("fsync=off", "synchronous_commit=off", "full_page_writes=off")) {
                arguments.add("-c");
                arguments.add(setting);
            }
            server = directory.spawn(binaries.postgres(), arguments, directory.file("postgres.log"));
            directory.watchOver(server);
            awaitReadyAndCreateDatabase();
            LOG.infof("Durable Batch started %s from %s for datasource %s at %s; data in %s, stopped with this JVM",
                    binaries.version(), binaries.bin(), settings.dataSource(), jdbcUrl(), directory.root());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The JDBC URL of the server's database. */
    String jdbcUrl() {
        return url(DATABASE);
    }

    @Override
    public String getConnectionInfo() {
        return jdbcUrl();
    }

    @Override
    public String getContainerId() {
        return null;
    }

    @Override
    public void close() {
        if (directory != null) {
            directory.stop(server);
            directory = null;
            server = null;
        }
    }

    private String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    private void awaitReadyAndCreateDatabase() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Properties credentials = new Properties();
        credentials.setProperty("user", settings.username());
        credentials.setProperty("password", settings.password());
        while (true) {
            if (!server.isAlive()) {
                throw new IllegalStateException("The local PostgreSQL for datasource " + settings.dataSource()
                        + " exited at start (code " + server.exitValue() + "): " + directory.tail("postgres.log"));
            }
            try (Connection connection = new org.postgresql.Driver().connect(url("postgres"), credentials);
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + DATABASE);
                return;
            } catch (SQLException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The local PostgreSQL for datasource " + settings.dataSource()
                            + " did not accept connections within " + READY_TIMEOUT.toSeconds() + " s: "
                            + directory.tail("postgres.log"), e);
                }
                sleep();
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while the local PostgreSQL started", e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port on 127.0.0.1 for the local PostgreSQL", e);
        }
    }
}
