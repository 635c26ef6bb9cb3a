package io.durablebatch.deployment.test.kernel;

import java.sql.SQLException;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.repository.spi.KernelRepository;

/**
 * A kernel test that runs jobs into {@code kernel_target}: the operator it runs them with, the
 * repository it reads their executions from, and the datasource of the target, which is created
 * before each test. A subclass adds this class to its {@code QuarkusUnitTest} archive, so that its
 * fields are injected.
 */
abstract class KernelTest {

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @BeforeEach
    void createTarget() throws SQLException {
        KernelTestSupport.createTarget(dataSource);
    }
}
