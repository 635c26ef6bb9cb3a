package io.durablebatch.rest;

/**
 * The three roles of the operator REST API, as the {@code @RolesAllowed} expressions its endpoints
 * carry: each resolves the configured role name ({@code quarkus.durable-batch.rest.roles.*}) with
 * its default. In effect viewer &sub; operator &sub; admin: a read allows all three, an operator
 * action operator and admin, an admin action admin only.
 */
public final class BatchRoles {

    /** Reads: definitions, instances, executions, audit, holds, purge survey. */
    public static final String VIEWER = "${quarkus.durable-batch.rest.roles.viewer:batch-viewer}";

    /** Start, stop and restart. */
    public static final String OPERATOR = "${quarkus.durable-batch.rest.roles.operator:batch-operator}";

    /** Recover, abandon, holds and purge. */
    public static final String ADMIN = "${quarkus.durable-batch.rest.roles.admin:batch-admin}";

    private BatchRoles() {
    }
}
