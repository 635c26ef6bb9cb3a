package io.durablebatch.deployment.test.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.quarkus.test.QuarkusUnitTest;

/** An application's own socket timeout wins over the extension's default. */
class RepositoryConnectionTimeoutOverrideTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp()
            .overrideConfigKey("quarkus.datasource.jdbc.additional-jdbc-properties.socketTimeout", "42");

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theApplicationsValueStands() {
        assertEquals("42", dataSource.getConfiguration().connectionPoolConfiguration().connectionFactoryConfiguration()
                .jdbcProperties().getProperty("socketTimeout"));
    }
}
