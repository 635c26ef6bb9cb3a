package io.durablebatch.deployment.test;

import static io.durablebatch.execution.ExecutionStatus.ABANDONED;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static io.durablebatch.execution.ExecutionStatus.STARTING;
import static io.durablebatch.execution.ExecutionStatus.STOPPED;
import static io.durablebatch.execution.ExecutionStatus.STOPPING;
import static io.durablebatch.execution.ExecutionStatus.UNKNOWN;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

import io.durablebatch.execution.ExecutionStatus;

/**
 * The lifecycle table of SPEC §3, written out here rather than taken from {@link ExecutionStatus},
 * so that the tests do not trust the code they test. Targets are listed in the SPEC's order, which
 * also decides the path {@link #path} takes when two are equally short.
 */
public final class LifecycleTable {

    private static final Map<ExecutionStatus, List<ExecutionStatus>> ALLOWED = Map.of(
            STARTING, List.of(STARTED, FAILED, STOPPED),
            STARTED, List.of(STOPPING, COMPLETED, FAILED, UNKNOWN),
            STOPPING, List.of(STOPPED, FAILED, COMPLETED, UNKNOWN),
            STOPPED, List.of(ABANDONED),
            FAILED, List.of(ABANDONED),
            COMPLETED, List.of(),
            ABANDONED, List.of(),
            UNKNOWN, List.of());

    private LifecycleTable() {
    }

    /** Whether the table allows {@code from -> to}; a step may also stay STARTED to record progress. */
    public static boolean allows(ExecutionStatus from, ExecutionStatus to, boolean step) {
        return ALLOWED.get(from).contains(to) || (step && from == STARTED && to == STARTED);
    }

    /**
     * All 64 (from, to, allowed) triples. Statuses travel as names: QuarkusUnitTest invokes the test
     * in the application's class loader, where the enum is another class.
     */
    public static Stream<Arguments> everyPair(boolean step) {
        return Arrays.stream(ExecutionStatus.values()).flatMap(from -> Arrays.stream(ExecutionStatus.values())
                .map(to -> Arguments.of(from.name(), to.name(), allows(from, to, step))));
    }

    /** The shortest legal path from {@code from} to {@code to}, without {@code from}; empty when they are equal. */
    public static List<ExecutionStatus> path(ExecutionStatus from, ExecutionStatus to) {
        Map<ExecutionStatus, ExecutionStatus> reachedFrom = new EnumMap<>(ExecutionStatus.class);
        Deque<ExecutionStatus> frontier = new ArrayDeque<>(List.of(from));
        while (!frontier.isEmpty() && !reachedFrom.containsKey(to) && from != to) {
            ExecutionStatus current = frontier.removeFirst();
            for (ExecutionStatus next : ALLOWED.get(current)) {
                if (next != from && reachedFrom.putIfAbsent(next, current) == null) {
                    frontier.addLast(next);
                }
            }
        }
        if (from != to && !reachedFrom.containsKey(to)) {
            throw new IllegalArgumentException("the lifecycle table has no path from " + from + " to " + to);
        }
        List<ExecutionStatus> path = new ArrayList<>();
        for (ExecutionStatus step = to; step != from; step = reachedFrom.get(step)) {
            path.add(step);
        }
        Collections.reverse(path);
        return path;
    }
}
