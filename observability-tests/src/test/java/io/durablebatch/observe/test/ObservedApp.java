package io.durablebatch.observe.test;

import io.quarkus.test.QuarkusUnitTest;

/** The application the observability tests start, with the jobs they run. */
final class ObservedApp {

    private ObservedApp() {
    }

    static QuarkusUnitTest app(Class<?>... extraClasses) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(ObservedApp.class, ObservedJobs.class).addClasses(extraClasses))
                .overrideConfigKey("quarkus.http.test-port", "0")
                .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false")
                .overrideConfigKey("quarkus.log.console.json.enabled", "false")
                .overrideConfigKey("quarkus.micrometer.binder-enabled-default", "false");
    }
}
