package io.durablebatch.deployment.test.devservices;

import static org.hamcrest.Matchers.equalTo;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusDevModeTest;
import io.restassured.RestAssured;

/**
 * A dev-mode reload keeps the local server and its data: the application restarts on a code change,
 * the server does not (its configuration did not change).
 */
class DevModeReloadKeepsDataTest {

    @RegisterExtension
    static final QuarkusDevModeTest DEV = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(Visits.class).addAsResource(new StringAsset("""
                    quarkus.durable-batch.datasource=orders
                    quarkus.datasource."orders".db-kind=postgresql
                    quarkus.hibernate-orm."orders".datasource=orders
                    quarkus.hibernate-orm."orders".packages=io.durablebatch.runtime.entity
                    """), "application.properties"));

    @Test
    void theDataOutlivesAReload() {
        RestAssured.get("/visits").then().statusCode(200).body(equalTo("first 1"));
        RestAssured.get("/visits").then().statusCode(200).body(equalTo("first 2"));

        DEV.modifySourceFile(Visits.class, source -> source.replace("\"first\"", "\"second\""));

        RestAssured.get("/visits").then().statusCode(200).body(equalTo("second 3"));
    }
}
