package io.durablebatch.deployment.test.entity;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertCausedBy;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A persistence unit named by {@code quarkus.durable-batch.persistence-unit} that does not exist
 * fails the build, naming the unit, the repository's datasource and the units there are.
 */
class UnknownPersistenceUnitTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.persistence-unit", "reports")
            .assertException(failure -> assertCausedBy(failure, "persistence unit 'reports' of the datasource <default>",
                    "there is no such persistence unit; the units are [<default>]",
                    "quarkus.hibernate-orm.\"reports\".datasource=<default>"));

    @Test
    void theApplicationIsNotBuilt() {
        Assertions.fail("the build must fail");
    }
}
