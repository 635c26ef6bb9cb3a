package io.durablebatch.deployment.test.devservices;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A configured PostgreSQL installation that holds no server fails the start, naming the property. */
class MissingPostgresBinariesTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.durable-batch.datasource", "orders")
            .overrideConfigKey("quarkus.datasource.\"orders\".db-kind", "postgresql")
            .overrideConfigKey("quarkus.hibernate-orm.\"orders\".datasource", "orders")
            .overrideConfigKey("quarkus.hibernate-orm.\"orders\".packages", "io.durablebatch.runtime.entity")
            .overrideConfigKey("quarkus.durable-batch.devservices.local.path", "/nowhere/bin")
            .assertException(failure -> {
                Throwable cause = failure;
                while (cause != null && !String.valueOf(cause.getMessage()).contains("/nowhere/bin")) {
                    cause = cause.getCause();
                }
                assertTrue(cause != null, "no cause names the path: " + failure);
                assertTrue(cause.getMessage().contains(
                        "quarkus.durable-batch.devservices.local.path=/nowhere/bin holds no initdb and postgres executables"),
                        cause.getMessage());
            });

    @Test
    void theApplicationDoesNotStart() {
        Assertions.fail("startup must fail");
    }
}
