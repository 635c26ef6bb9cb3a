package io.durablebatch.deployment.test;

import jakarta.inject.Inject;

import io.durablebatch.operator.JobOperator;
import io.durablebatch.repository.spi.KernelRepository;

/**
 * A test of the kernel's operator against the repository: the operator it calls, the repository it
 * reads the outcome from, and the stored rows it compares. A subclass adds this class to its
 * {@code QuarkusUnitTest} archive ({@link RepositoryTestSupport#repositoryApp}), so that its fields
 * are injected.
 */
public abstract class OperatorTest {

    @Inject
    protected JobOperator operator;

    @Inject
    protected KernelRepository repository;

    @Inject
    protected StoredState stored;
}
