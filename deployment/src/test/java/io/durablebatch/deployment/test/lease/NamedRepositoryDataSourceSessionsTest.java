package io.durablebatch.deployment.test.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.quarkus.agroal.DataSource;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A named repository datasource gets the session setup; the application's other datasources keep
 * the server's setting.
 */
class NamedRepositoryDataSourceSessionsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(IdleInTransactionTimeouts.class)
            .overrideConfigKey("quarkus.durable-batch.datasource", "batch")
            .overrideConfigKey("quarkus.durable-batch.statements.idle-in-transaction-timeout", "7s")
            .overrideConfigKey("quarkus.datasource.\"batch\".db-kind", "postgresql")
            .overrideConfigKey("quarkus.datasource.\"batch\".jdbc.url", "${quarkus.datasource.jdbc.url}")
            .overrideConfigKey("quarkus.datasource.\"batch\".username", "${quarkus.datasource.username}")
            .overrideConfigKey("quarkus.datasource.\"batch\".password", "${quarkus.datasource.password}")
            // the repository's entities join the persistence unit of its datasource
            .overrideConfigKey("quarkus.hibernate-orm.\"batch\".datasource", "batch")
            .overrideConfigKey("quarkus.hibernate-orm.\"batch\".packages", "io.durablebatch.runtime.entity")
            .overrideConfigKey("quarkus.datasource.\"reporting\".db-kind", "postgresql")
            .overrideConfigKey("quarkus.datasource.\"reporting\".jdbc.url", "${quarkus.datasource.jdbc.url}")
            .overrideConfigKey("quarkus.datasource.\"reporting\".username", "${quarkus.datasource.username}")
            .overrideConfigKey("quarkus.datasource.\"reporting\".password", "${quarkus.datasource.password}");

    @Inject
    @DataSource("batch")
    AgroalDataSource repository;

    @Inject
    @DataSource("reporting")
    AgroalDataSource application;

    @Test
    void onlyTheRepositoryDataSourceIsSetUp() throws SQLException {
        assertEquals("7s", IdleInTransactionTimeouts.of(repository));
        assertEquals(IdleInTransactionTimeouts.ofServer(), IdleInTransactionTimeouts.of(application));
    }

}
