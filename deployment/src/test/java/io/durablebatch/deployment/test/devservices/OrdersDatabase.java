package io.durablebatch.deployment.test.devservices;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.jboss.shrinkwrap.api.spec.JavaArchive;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The repository on a named datasource, {@code orders}, with no URL: the default datasource has the
 * shared test database's URL as a system property, so Dev Services are tested on another one.
 */
public final class OrdersDatabase {

    private OrdersDatabase() {
    }

    /** An application whose repository is on {@code orders}, which has no URL. */
    public static QuarkusUnitTest withoutUrl() {
        return withoutUrl(jar -> {
        });
    }

    /** An application of {@code archive}'s classes and resources whose repository is on {@code orders}, which has no URL. */
    public static QuarkusUnitTest withoutUrl(Consumer<JavaArchive> archive) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> archive.accept(jar.addClass(OrdersDatabase.class)))
                .overrideConfigKey("quarkus.durable-batch.datasource", "orders")
                .overrideConfigKey("quarkus.datasource.\"orders\".db-kind", "postgresql")
                .overrideConfigKey("quarkus.hibernate-orm.\"orders\".datasource", "orders")
                .overrideConfigKey("quarkus.hibernate-orm.\"orders\".packages", "io.durablebatch.runtime.entity");
    }

    /** The first column of the one row {@code sql} returns. */
    public static Object single(DataSource dataSource, String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getObject(1);
        }
    }
}
