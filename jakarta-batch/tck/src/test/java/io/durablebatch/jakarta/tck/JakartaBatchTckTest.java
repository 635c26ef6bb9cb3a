package io.durablebatch.jakarta.tck;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import io.quarkus.test.junit.QuarkusTest;

/**
 * Runs the Jakarta Batch TCK's SE suite inside this Quarkus application, so that the TCK's
 * {@code BatchRuntime.getJobOperator()} reaches the running implementation and its artifacts are
 * the application's CDI beans. The TCK's test classes cannot be {@code @QuarkusTest}s themselves:
 * they are launched from here, on the application's class loader, with JUnit's launcher.
 * <p>
 * Writes {@code target/tck/summary.txt} (passed, failed, skipped per class) and
 * {@code target/tck/failures.txt}, and fails when a test listed in {@code tck-passing.txt} no longer
 * passes: the list only grows ({@code -Dtck.write-passing=true} rewrites it from a run).
 */
@QuarkusTest
class JakartaBatchTckTest {

    private static final Logger LOG = Logger.getLogger(JakartaBatchTckTest.class);

    @Test
    void theSeSuitePassesEveryTestItPassedBefore() throws IOException {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(lines("tck-classes.txt").stream().map(DiscoverySelectors::selectClass).toList())
                .build();
        TckResults results = new TckResults();
        // only the Jupiter engine: none of this build's own launcher listeners and interceptors
        LauncherConfig config = LauncherConfig.builder()
                .enableLauncherSessionListenerAutoRegistration(false)
                .enableLauncherDiscoveryListenerAutoRegistration(false)
                .enablePostDiscoveryFilterAutoRegistration(false)
                .enableTestExecutionListenerAutoRegistration(false)
                .build();
        LauncherFactory.create(config).execute(request, results);
        LOG.info(results.write(Path.of(System.getProperty("tck.report-directory", "target/tck"))));

        Path passingFile = Path.of(System.getProperty("tck.passing-file", "src/test/resources/tck-passing.txt"));
        Set<String> expected = new TreeSet<>(Files.exists(passingFile) ? Files.readAllLines(passingFile) : List.of());
        expected.removeIf(line -> line.isBlank() || line.startsWith("#"));
        if (Boolean.getBoolean("tck.write-passing")) {
            Files.write(passingFile, results.passed());
        }
        Set<String> regressed = new TreeSet<>(expected);
        regressed.removeAll(results.passed());
        assertTrue(regressed.isEmpty(), "TCK tests that passed before and no longer do: " + regressed);
    }

    private static List<String> lines(String resource) throws IOException {
        try (InputStream in = JakartaBatchTckTest.class.getClassLoader().getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        }
    }
}
