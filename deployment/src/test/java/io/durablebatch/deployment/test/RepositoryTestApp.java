package io.durablebatch.deployment.test;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The application a repository test starts: the test class and the given helpers, on a random HTTP
 * port, so test JVMs of builds running side by side on one machine do not collide on 8081.
 */
public final class RepositoryTestApp {

    private RepositoryTestApp() {
    }

    public static QuarkusUnitTest with(Class<?>... helpers) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClass(RepositoryTestApp.class).addClasses(helpers))
                .overrideConfigKey("quarkus.http.test-port", "0");
    }
}
