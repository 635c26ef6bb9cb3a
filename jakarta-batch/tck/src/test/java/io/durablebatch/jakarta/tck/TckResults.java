package io.durablebatch.jakarta.tck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/** Each TCK test's outcome, by test and by class, and the report written from them. */
final class TckResults implements TestExecutionListener {

    enum Outcome {
        PASSED,
        FAILED,
        SKIPPED
    }

    /** One test's outcome and, when it failed, the first line of why. */
    record Result(String className, Outcome outcome, String reason) {
    }

    private static final String INVOCATION = "[test-template-invocation:#";

    private final Map<String, Result> results = new ConcurrentHashMap<>();

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        if (test.isTest()) {
            record(test, Outcome.SKIPPED, reason);
        }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (!test.isTest()) {
            return;
        }
        switch (result.getStatus()) {
            case SUCCESSFUL -> record(test, Outcome.PASSED, "");
            case ABORTED -> record(test, Outcome.SKIPPED, firstLine(result.getThrowable()));
            case FAILED -> record(test, Outcome.FAILED, firstLine(result.getThrowable()));
        }
    }

    private void record(TestIdentifier test, Outcome outcome, String reason) {
        MethodSource method = test.getSource().filter(MethodSource.class::isInstance).map(MethodSource.class::cast)
                .orElseThrow(() -> new IllegalStateException("a TCK test without a method: " + test.getUniqueId()));
        String simpleClass = method.getClassName().substring(method.getClassName().lastIndexOf('.') + 1);
        // a parameterised test's invocations share the method: their index tells them apart
        String uniqueId = test.getUniqueId();
        int invocation = uniqueId.lastIndexOf(INVOCATION);
        String name = simpleClass + "#" + method.getMethodName() + (invocation < 0 ? ""
                : " [" + uniqueId.substring(invocation + INVOCATION.length(), uniqueId.length() - 1) + "]");
        results.put(name, new Result(simpleClass, outcome, reason));
    }

    private static String firstLine(Optional<Throwable> failure) {
        return failure.map(f -> (f.getClass().getSimpleName() + ": " + f.getMessage()).lines().findFirst().orElse(""))
                .orElse("");
    }

    Set<String> passed() {
        Set<String> passed = new TreeSet<>();
        results.forEach((name, result) -> {
            if (result.outcome() == Outcome.PASSED) {
                passed.add(name);
            }
        });
        return passed;
    }

    long count(Outcome outcome) {
        return results.values().stream().filter(r -> r.outcome() == outcome).count();
    }

    /** {@code summary.txt}: the totals and each class's; {@code failures.txt}: each test that did not pass. */
    String write(Path directory) throws IOException {
        Files.createDirectories(directory);
        Map<String, long[]> byClass = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        new TreeMap<>(results).forEach((name, result) -> {
            byClass.computeIfAbsent(result.className(), c -> new long[3])[result.outcome().ordinal()]++;
            if (result.outcome() != Outcome.PASSED) {
                failures.add(result.outcome() + "\t" + name + "\t" + result.reason());
            }
        });
        StringBuilder summary = new StringBuilder(String.format("TCK SE suite: %d tests, %d passed, %d failed, %d skipped%n",
                results.size(), count(Outcome.PASSED), count(Outcome.FAILED), count(Outcome.SKIPPED)));
        summary.append(String.format("%-45s %7s %7s %7s%n", "class", "passed", "failed", "skipped"));
        byClass.forEach((name, counts) -> summary.append(String.format("%-45s %7d %7d %7d%n", name, counts[0], counts[1],
                counts[2])));
        Files.writeString(directory.resolve("summary.txt"), summary);
        Files.write(directory.resolve("failures.txt"), failures);
        return summary.toString();
    }
}
