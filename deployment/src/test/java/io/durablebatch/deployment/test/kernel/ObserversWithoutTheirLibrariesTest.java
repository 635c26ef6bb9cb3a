package io.durablebatch.deployment.test.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.runtime.observe.ExecutionObserver;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;

/**
 * In an application without Quarkus' OpenTelemetry extension the kernel's observers are the log
 * context and (this module's tests have Micrometer) the Micrometer meters: no tracing bean. Tracing
 * follows the extension's capability, not the API's classes: {@code quarkus-scheduler} puts
 * OpenTelemetry's API on every kernel application's class path for its own optional tracing.
 */
class ObserversWithoutTheirLibrariesTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp();

    @Test
    void onlyTheObserversOfPresentLibrariesAreBeans() {
        List<String> observers = Arc.container().select(ExecutionObserver.class).stream()
                .map(observer -> observer.getClass().getName().replaceAll("_ClientProxy$|_Subclass$", "")).sorted()
                .toList();
        assertEquals(List.of("io.durablebatch.runtime.metrics.MicrometerExecutionMeters",
                "io.durablebatch.runtime.observe.LogContext"), observers);
    }
}
