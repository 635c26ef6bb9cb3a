package io.durablebatch.deployment.test.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Properties;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The repository's datasource gets TCP keepalive, and no socket timeout: the datasource is the
 * application's too, and a long write of its own must be allowed to finish.
 */
class RepositoryConnectionTimeoutTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp();

    @Inject
    AgroalDataSource dataSource;

    @Test
    void keepAliveButNoSocketTimeoutOnTheApplicationsWork() {
        Properties jdbc = dataSource.getConfiguration().connectionPoolConfiguration().connectionFactoryConfiguration()
                .jdbcProperties();
        assertEquals(null, jdbc.getProperty("socketTimeout"), "the application's own statements are not cut");
        assertEquals("true", jdbc.getProperty("tcpKeepAlive"));
    }
}
