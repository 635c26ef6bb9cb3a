package io.durablebatch.rest.deployment.test;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A root path that ends with {@code /} fails the build, naming the property. */
class TrailingSlashRootPathTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.durable-batch.rest.root-path", "/ops/batch/")
            .assertException(RootPathRefusal.of("/ops/batch/"));

    @Test
    void theBuildFails() {
        fail("the build should have failed");
    }
}
