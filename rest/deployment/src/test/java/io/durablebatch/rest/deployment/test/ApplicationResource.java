package io.durablebatch.rest.deployment.test;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** A resource of the application itself, whose errors the extension must leave alone. */
@Path("/app")
public class ApplicationResource {

    @GET
    @Path("/bad-value")
    public String badValue() {
        throw new IllegalArgumentException("value refused by the application");
    }
}
