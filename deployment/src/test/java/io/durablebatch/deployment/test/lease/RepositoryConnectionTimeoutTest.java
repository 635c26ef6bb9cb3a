package io.durablebatch.deployment.test.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Properties;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.quarkus.test.QuarkusUnitTest;

/** The repository's datasource gets a finite socket timeout and TCP keepalive unless the application sets its own. */
class RepositoryConnectionTimeoutTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp();

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aHalfOpenConnectionCannotBlockAReadForever() {
        Properties jdbc = dataSource.getConfiguration().connectionPoolConfiguration().connectionFactoryConfiguration()
                .jdbcProperties();
        assertEquals("300", jdbc.getProperty("socketTimeout"));
        assertEquals("true", jdbc.getProperty("tcpKeepAlive"));
    }
}
