package io.durablebatch.deployment.test.lifecycle;

import static io.durablebatch.repository.ExecutionStatus.ABANDONED;
import static io.durablebatch.repository.ExecutionStatus.COMPLETED;
import static io.durablebatch.repository.ExecutionStatus.FAILED;
import static io.durablebatch.repository.ExecutionStatus.STARTED;
import static io.durablebatch.repository.ExecutionStatus.STARTING;
import static io.durablebatch.repository.ExecutionStatus.STOPPED;
import static io.durablebatch.repository.ExecutionStatus.STOPPING;
import static io.durablebatch.repository.ExecutionStatus.UNKNOWN;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

import io.durablebatch.repository.ExecutionStatus;

/**
 * The lifecycle table of SPEC §3, written out here rather than taken from {@link ExecutionStatus},
 * so that the tests do not trust the code they test.
 */
final class LifecycleTable {

    private static final Map<ExecutionStatus, Set<ExecutionStatus>> ALLOWED = Map.of(
            STARTING, EnumSet.of(STARTED, FAILED, STOPPED),
            STARTED, EnumSet.of(STOPPING, COMPLETED, FAILED, UNKNOWN),
            STOPPING, EnumSet.of(STOPPED, FAILED, COMPLETED, UNKNOWN),
            STOPPED, EnumSet.of(ABANDONED),
            FAILED, EnumSet.of(ABANDONED),
            COMPLETED, EnumSet.noneOf(ExecutionStatus.class),
            ABANDONED, EnumSet.noneOf(ExecutionStatus.class),
            UNKNOWN, EnumSet.noneOf(ExecutionStatus.class));

    private LifecycleTable() {
    }

    /** Whether the table allows {@code from -> to}; a step may also stay STARTED to record progress. */
    static boolean allows(ExecutionStatus from, ExecutionStatus to, boolean step) {
        return ALLOWED.get(from).contains(to) || (step && from == STARTED && to == STARTED);
    }

    /**
     * All 64 (from, to, allowed) triples. Statuses travel as names: QuarkusUnitTest invokes the test
     * in the application's class loader, where the enum is another class.
     */
    static Stream<Arguments> everyPair(boolean step) {
        return Arrays.stream(ExecutionStatus.values()).flatMap(from -> Arrays.stream(ExecutionStatus.values())
                .map(to -> Arguments.of(from.name(), to.name(), allows(from, to, step))));
    }
}
