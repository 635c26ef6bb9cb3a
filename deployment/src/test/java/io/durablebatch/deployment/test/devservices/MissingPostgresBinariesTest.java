package io.durablebatch.deployment.test.devservices;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertCausedBy;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A configured PostgreSQL installation that holds no server fails the start, naming the property. */
class MissingPostgresBinariesTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = OrdersDatabase.withoutUrl()
            .overrideConfigKey("quarkus.durable-batch.devservices.local.path", "/nowhere/bin")
            .assertException(failure -> assertCausedBy(failure,
                    "quarkus.durable-batch.devservices.local.path=/nowhere/bin holds no initdb and postgres executables"));

    @Test
    void theApplicationDoesNotStart() {
        Assertions.fail("startup must fail");
    }
}
