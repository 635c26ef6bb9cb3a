package io.durablebatch.deployment.devservices;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;

import io.durablebatch.deployment.devservices.DurableBatchDevServicesConfig.Binaries;

/**
 * A JVM that starts a local server and waits to be killed: prints {@code READY <directory>} once the
 * server accepts connections.
 */
public final class LocalPostgresChild {

    public static void main(String[] args) throws Exception {
        LocalPostgres server = new LocalPostgres(settings(Binaries.valueOf(args[0])));
        server.start();
        System.out.println("READY " + directory(server));
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    static LocalPostgres.Settings settings(Binaries binaries) {
        return new LocalPostgres.Settings("<default>", "quarkus", "quarkus", OptionalInt.empty(), binaries,
                Optional.empty(), "14.22.0");
    }

    /** The server's directory, as the server itself reports it. */
    static Path directory(LocalPostgres server) throws Exception {
        return Path.of(query(server, "show data_directory")).getParent();
    }

    /** The first column of the one row {@code sql} returns from the server's database. */
    static String query(LocalPostgres server, String sql) throws Exception {
        Properties credentials = new Properties();
        credentials.setProperty("user", "quarkus");
        try (Connection connection = new org.postgresql.Driver().connect(server.jdbcUrl(), credentials);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
