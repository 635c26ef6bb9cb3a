package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertCausedBy;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** The table prefix is spliced into SQL, so anything but a plain lower-case identifier stops the start. */
class InvalidTablePrefixTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.schema.table-prefix", "batch; DROP TABLE x; --")
            .assertException(failure -> assertCausedBy(failure, "quarkus.durable-batch.schema.table-prefix",
                    "lower-case letters", "'batch; DROP TABLE x; --'"));

    @Test
    void theApplicationDoesNotStart() {
        Assertions.fail("startup must fail");
    }
}
