package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertCausedBy;
import static io.durablebatch.deployment.test.RepositoryTestSupport.dropTablesWithPrefix;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code migrate-at-start=false} the schema is only validated: a database without the
 * repository's tables stops the start and says which version is missing.
 */
class ValidateOnlyMissingSchemaTest {

    private static final String PREFIX = "unmigrated_";

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.schema.table-prefix", PREFIX)
            .overrideConfigKey("quarkus.durable-batch.schema.migrate-at-start", "false")
            .setBeforeAllCustomizer(() -> dropTablesWithPrefix(PREFIX))
            .assertException(failure -> assertCausedBy(failure, "'unmigrated_*'", "is not at version 1",
                    "quarkus.durable-batch.schema.migrate-at-start is false"));

    @Test
    void theApplicationDoesNotStart() {
        Assertions.fail("startup must fail");
    }
}
