package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A datasource URL where no database answers stops the start with one line that names the
 * datasource and the URL, with no stack trace of Flyway's or the driver's.
 */
class UnreachableDatabaseTest {

    private static final String NOWHERE = "jdbc:postgresql://127.0.0.1:1/nowhere";

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.datasource", "orders")
            .overrideConfigKey("quarkus.datasource.\"orders\".db-kind", "postgresql")
            .overrideConfigKey("quarkus.datasource.\"orders\".jdbc.url", NOWHERE)
            .overrideConfigKey("quarkus.hibernate-orm.\"orders\".datasource", "orders")
            .overrideConfigKey("quarkus.hibernate-orm.\"orders\".packages", "io.durablebatch.runtime.entity")
            .assertException(failure -> {
                Throwable unreachable = failure;
                while (unreachable != null && !String.valueOf(unreachable.getMessage()).contains("cannot reach")) {
                    unreachable = unreachable.getCause();
                }
                assertTrue(unreachable != null, "no cause says the database cannot be reached: " + failure);
                assertTrue(unreachable.getMessage().startsWith(
                        "Durable Batch cannot reach its datasource 'orders' at " + NOWHERE + ": "),
                        unreachable.getMessage());
                assertTrue(unreachable.getMessage().contains("refused"), unreachable.getMessage());
                assertEquals(null, unreachable.getCause());
                assertEquals(0, unreachable.getStackTrace().length);
            });

    @Test
    void theApplicationDoesNotStart() {
        Assertions.fail("startup must fail");
    }
}
