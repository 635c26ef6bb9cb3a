package io.durablebatch.deployment.test.lifecycle;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.durablebatch.deployment.test.LifecycleTable;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §3 for job executions: each of the 64 status pairs either moves by compare-and-swap (one
 * statement, version plus one) or is refused with {@code ILLEGAL_TRANSITION} and changes nothing.
 */
class JobExecutionLifecycleTableTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Inject
    MetadataSql sql;

    static Stream<Arguments> everyStatusPair() {
        return LifecycleTable.everyPair(false);
    }

    @ParameterizedTest(name = "{0} -> {1} allowed: {2}")
    @MethodSource("everyStatusPair")
    void movesOnlyAlongTheLifecycleTable(String from, String to, boolean allowed) {
        JobExecution execution = given.jobExecutionIn(ExecutionStatus.valueOf(from));
        LifecycleTransition transition = LifecycleTransition.to(ExecutionStatus.valueOf(to), now());

        if (allowed) {
            JobExecution moved = tx(() -> assertStatements(sql, 1,
                    () -> repository.transitionJobExecution(execution.id(), execution.version(), transition)));
            assertEquals(ExecutionStatus.valueOf(to), moved.status());
            assertEquals(execution.version().next(), moved.version());
            assertEquals(execution.id(), moved.id());
            assertEquals(transition.at(), moved.lastUpdated());
            assertEquals(moved, tx(() -> repository.getJobExecution(execution.id())).orElseThrow());
        } else {
            state.assertRefusedChangingNothing(execution.jobInstanceId(), RepositoryError.ILLEGAL_TRANSITION,
                    () -> repository.transitionJobExecution(execution.id(), execution.version(), transition));
            assertEquals(execution, tx(() -> repository.getJobExecution(execution.id())).orElseThrow());
        }
    }
}
