package io.durablebatch.observe.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The Grafana dashboard in {@code docs/grafana} parses, and each series its queries name is a meter
 * the extension registers (with the suffix Prometheus gives its type): an application runs jobs
 * (chunks, partitions, a failure), then every {@code durable_batch_*} name of the dashboard must be
 * found among its registry's meters. The durations, backlog and statement times are registered by
 * this change; without it their panels name meters that do not exist, and this test fails.
 */
class DashboardMetersTest {

    static final Path DASHBOARD = Path.of("..", "docs", "grafana", "durable-batch-dashboard.json");
    private static final Pattern SERIES = Pattern.compile("\\bdurable_batch_[a-z_]+");

    @RegisterExtension
    static final QuarkusUnitTest APP = ObservedApp.app(Registry.class);

    @Singleton
    static class Registry {
        @Produces
        @Singleton
        SimpleMeterRegistry registry() {
            return new SimpleMeterRegistry();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    SimpleMeterRegistry meters;

    @Test
    void theDashboardNamesOnlyMetersThatExist() throws Exception {
        assertEquals(ExecutionStatus.COMPLETED, operator.runAndWait("observed",
                JobParameters.of("run", UUID.randomUUID().toString()), OperatorCall.by("test")).status());
        assertEquals(ExecutionStatus.FAILED, operator.runAndWait("failingOnce",
                JobParameters.of("run", UUID.randomUUID().toString()), OperatorCall.by("test")).status());

        // each registered meter under the names Prometheus gives its series
        Map<String, String> series = new TreeMap<>();
        for (Meter meter : meters.getMeters()) {
            String name = meter.getId().getName();
            if (!name.startsWith("durable.batch.")) {
                continue;
            }
            String base = name.replace('.', '_');
            switch (meter.getId().getType()) {
                case COUNTER -> series.put(base + "_total", name);
                case TIMER -> {
                    series.put(base + "_seconds_count", name);
                    series.put(base + "_seconds_sum", name);
                    series.put(base + "_seconds_max", name);
                }
                default -> series.put(base, name);
            }
        }
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        assertEquals("durable-batch", dashboard.path("uid").asText());
        Set<String> named = new TreeSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            assertTrue(panel.path("targets").size() > 0, panel.path("title").asText());
            for (JsonNode target : panel.path("targets")) {
                Matcher found = SERIES.matcher(target.path("expr").asText());
                while (found.find()) {
                    named.add(found.group());
                }
            }
        }
        Matcher variable = SERIES.matcher(dashboard.path("templating").toString());
        while (variable.find()) {
            named.add(variable.group());
        }
        Set<String> missing = new TreeSet<>(named);
        missing.removeAll(series.keySet());
        assertEquals(Set.of(), missing, "series the dashboard names that no meter gives; the meters: " + series);
        for (String meter : Set.of("durable_batch_execution_duration_seconds_sum", "durable_batch_step_duration_seconds_sum",
                "durable_batch_partitions_unassigned", "durable_batch_repository_statement_seconds_sum",
                "durable_batch_lease_recoveries_total", "durable_batch_items_written_total")) {
            assertTrue(named.contains(meter), "the dashboard graphs " + meter);
        }
        assertTrue(meters.find("durable.batch.repository.statement").timers().size() > 5,
                "statements are timed by name");
        assertTrue(meters.find("durable.batch.repository.statement").timers().stream()
                .anyMatch(timer -> timer.getId().getTag("statement").startsWith("LifecycleUpdates.progressObservingStop")
                        && timer.count() >= 3),
                "the chunk's statement, named as the catalogue names it, once per chunk");
        assertTrue(meters.get("durable.batch.execution.duration").tags("job", "failingOnce", "status", "FAILED")
                .timer().count() == 1);
        assertTrue(meters.get("durable.batch.step.duration").tags("job", "observed", "step", "spreadWorker",
                "partition", "true").timer().count() == 2, "one per partition worker");
    }
}
