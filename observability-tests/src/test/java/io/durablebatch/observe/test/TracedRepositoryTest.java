package io.durablebatch.observe.test;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.job.JobRegistry;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;

/**
 * A test of the trace contexts kept in the repository: what it runs jobs with, writes rows as another
 * process would with, and reads the exported spans from (none left from an earlier test).
 */
abstract class TracedRepositoryTest {

    @Inject
    InMemorySpanExporter exporter;

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    @Inject
    JobRegistry registry;

    @Inject
    AgroalDataSource dataSource;

    @BeforeEach
    void reset() {
        exporter.reset();
    }
}
