package io.durablebatch.deployment.test.devservices;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.quarkus.agroal.DataSource;
import io.vertx.ext.web.Router;

/** Counts visits in the repository's database: {@code GET /visits} answers the generation and the count. */
@Singleton
public class Visits {

    static final String GENERATION = "first";

    @Inject
    @DataSource("orders")
    AgroalDataSource orders;

    void routes(@Observes Router router) {
        router.get("/visits").blockingHandler(context -> context.response().end(GENERATION + " " + visit()));
    }

    private long visit() {
        try (Connection connection = orders.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS visits (at timestamptz NOT NULL DEFAULT now())");
            statement.execute("INSERT INTO visits DEFAULT VALUES");
            try (ResultSet count = statement.executeQuery("SELECT count(*) FROM visits")) {
                count.next();
                return count.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
