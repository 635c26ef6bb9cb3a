package io.durablebatch.rest.deployment.test;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;

import org.junit.jupiter.api.Test;

import io.durablebatch.rest.BatchRoles;

/**
 * Every endpoint carries {@code @RolesAllowed} with exactly one of the three role sets (read:
 * viewer, operator, admin; operate: operator, admin; administer: admin), so that a new endpoint
 * cannot be open, or allowed to an unplanned mix of roles.
 */
class EveryEndpointHasARoleTest {

    private static final List<Set<String>> ROLE_SETS = List.of(
            Set.of(BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN),
            Set.of(BatchRoles.OPERATOR, BatchRoles.ADMIN), Set.of(BatchRoles.ADMIN));

    @Test
    void everyEndpointAllowsOneOfTheThreeRoleSets() {
        assertTrue(Endpoints.all().size() >= 14, "endpoints found: " + Endpoints.all().size());
        for (Endpoints endpoint : Endpoints.all()) {
            RolesAllowed roles = endpoint.method().getAnnotation(RolesAllowed.class);
            if (roles == null) {
                fail(endpoint.httpMethod() + " " + endpoint.path() + " has no @RolesAllowed");
            }
            Set<String> allowed = Set.of(roles.value());
            assertTrue(ROLE_SETS.contains(allowed), endpoint.httpMethod() + " " + endpoint.path() + " allows " + allowed);
            if (endpoint.httpMethod().equals("GET")) {
                assertTrue(allowed.contains(BatchRoles.VIEWER), "a read is allowed to viewers: " + endpoint.path());
            } else {
                assertTrue(!allowed.contains(BatchRoles.VIEWER), "an action is not allowed to viewers: " + endpoint.path());
            }
        }
    }
}
