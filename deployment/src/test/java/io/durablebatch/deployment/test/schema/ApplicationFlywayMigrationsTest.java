package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.devservices.OrdersDatabase.single;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;

import jakarta.inject.Inject;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.devservices.OrdersDatabase;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.quarkus.agroal.DataSource;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The application migrates its own tables with quarkus-flyway into the repository's (empty) database:
 * its migrations run first (Flyway refuses a schema that holds tables but none of its history), the
 * repository's next, and Hibernate ORM validates the repository's tables after both.
 */
class ApplicationFlywayMigrationsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = OrdersDatabase.withoutUrl(jar -> jar.addAsResource(new StringAsset("""
            CREATE TABLE orders (id bigint PRIMARY KEY, customer text NOT NULL);
            """), "db/orders/V1__orders.sql"))
            // A fresh database from Dev Services' local server.
            .overrideConfigKey("quarkus.hibernate-orm.\"orders\".schema-management.strategy", "validate")
            .overrideConfigKey("quarkus.flyway.\"orders\".migrate-at-start", "true")
            .overrideConfigKey("quarkus.flyway.\"orders\".locations", "db/orders");

    @Inject
    @DataSource("orders")
    AgroalDataSource orders;

    @Test
    void bothMigrationsRanEachWithItsOwnHistory() throws SQLException {
        assertEquals(1L, single(orders, "select count(*) from flyway_schema_history where version = '1' and success"));
        assertEquals(0L, single(orders, "select count(*) from orders"));
        assertEquals(0L, single(orders, "select count(*) from dbatch_schema_history where not success"));
        assertEquals((long) SchemaMigrations.SCRIPTS.size(), single(orders,
                "select count(*) from dbatch_schema_history where type = 'SQL' and success"),
                "the repository's history, beside the application's, holds its own migrations only");
    }

}
