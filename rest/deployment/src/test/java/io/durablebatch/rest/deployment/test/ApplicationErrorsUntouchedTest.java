package io.durablebatch.rest.deployment.test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The problem mapping is the API's alone: an exception an application's own resource throws is
 * answered as Quarkus REST answers it without the extension (500, no problem document), not as the
 * API's 422 {@code VALUE_INVALID}.
 */
class ApplicationErrorsUntouchedTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(ApplicationResource.class))
            .overrideConfigKey("quarkus.http.test-port", "0");

    @Test
    void anApplicationResourcesIllegalArgumentIsNotAProblemDocument() {
        given().get("/app/bad-value").then().statusCode(500)
                .contentType(not(startsWith("application/problem+json")));
    }
}
