package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertCausedBy;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A repository datasource that is not configured fails the build, which names it, the datasources
 * there are and the property that would configure it.
 */
class UnconfiguredDataSourceTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.datasource", "reporting")
            .assertException(failure -> assertCausedBy(failure, "Durable Batch needs the datasource 'reporting'",
                    "the configured datasources are [<default>]", "quarkus.datasource.\"reporting\".db-kind"));

    @Test
    void theApplicationIsNotBuilt() {
        Assertions.fail("the build must fail");
    }
}
