package io.durablebatch.deployment.test.entity;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertCausedBy;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The repository's entities need a persistence unit on its datasource: a named repository datasource
 * that no persistence unit uses fails the build, naming the datasource and the property that would
 * give it one.
 */
class MissingPersistenceUnitTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.datasource.\"batch\".db-kind", "postgresql")
            .overrideConfigKey("quarkus.datasource.\"batch\".jdbc.url", "${quarkus.datasource.jdbc.url}")
            .overrideConfigKey("quarkus.durable-batch.datasource", "batch")
            .assertException(failure -> assertCausedBy(failure, "persistence unit of its datasource 'batch'",
                    "no persistence unit uses it", "quarkus.hibernate-orm.\"batch\".datasource=batch"));

    @Test
    void theApplicationIsNotBuilt() {
        Assertions.fail("the build must fail");
    }
}
