package io.durablebatch.it;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * The launch tests against the packaged application: the runnable jar in a verify run, the native
 * executable with {@code -Dnative} (where GraalVM or Mandrel builds one).
 */
@QuarkusIntegrationTest
class PackagedLaunchResourceIT extends LaunchResourceTest {
}
