package io.durablebatch.deployment.test.lifecycle;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.durablebatch.deployment.test.LifecycleTable;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §3 for step executions: the same 64 pairs as for job executions, except that STARTED to
 * STARTED is allowed and records progress (checkpoint and counters).
 */
class StepExecutionLifecycleTableTest {

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
        return LifecycleTable.everyPair(true);
    }

    @ParameterizedTest(name = "{0} -> {1} allowed: {2}")
    @MethodSource("everyStatusPair")
    void movesOnlyAlongTheLifecycleTable(String from, String to, boolean allowed) {
        StepExecution step = given.stepExecutionIn(ExecutionStatus.valueOf(from));
        boolean progress = step.status() == ExecutionStatus.STARTED
                && ExecutionStatus.valueOf(to) == ExecutionStatus.STARTED;
        Checkpoint checkpoint = Checkpoint.of(("position-" + step.id()).getBytes(StandardCharsets.UTF_8));
        StepCounters counters = new StepCounters(10, 9, 1, 2, 3, 4, 5, 6);
        LifecycleTransition transition = progress ? LifecycleTransition.progress(now(), checkpoint, counters)
                : LifecycleTransition.to(ExecutionStatus.valueOf(to), now());

        if (allowed) {
            StepExecution moved = tx(() -> assertStatements(sql, 1,
                    () -> repository.transitionStepExecution(step.id(), step.version(), transition)));
            assertEquals(ExecutionStatus.valueOf(to), moved.status());
            assertEquals(step.version().next(), moved.version());
            assertEquals(step.id(), moved.id());
            assertEquals(transition.at(), moved.lastUpdated());
            if (progress) {
                assertEquals(Optional.of(checkpoint), moved.checkpoint());
                assertEquals(counters, moved.counters());
                assertEquals(step.startedAt(), moved.startedAt(), "progress keeps the start time");
            }
            assertEquals(moved, tx(() -> repository.getStepExecution(step.id())).orElseThrow());
        } else {
            state.assertRefusedChangingNothing(step.jobInstanceId(), RepositoryError.ILLEGAL_TRANSITION,
                    () -> repository.transitionStepExecution(step.id(), step.version(), transition));
            assertEquals(step, tx(() -> repository.getStepExecution(step.id())).orElseThrow());
        }
    }
}
