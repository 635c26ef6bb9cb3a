package io.durablebatch.rest.runtime;

/**
 * The texts the OpenAPI document repeats across endpoints, written once. Every response of 400 and
 * above is a problem document: {@link ProblemContentFilter} gives each its media type and schema,
 * so an endpoint's annotation names only the status and the problem codes.
 */
final class ApiDocs {

    /** The tag of every operation of the API; {@link ProblemContentFilter} finds them by it. */
    static final String TAG = "Durable Batch";

    static final String TAG_DESCRIPTION = "Operate batch jobs: read, start, stop, restart, recover, hold, purge";

    static final String UNAUTHENTICATED = "No authenticated caller";

    static final String FORBIDDEN = "The caller lacks the endpoint's role";

    static final String STORAGE_TRANSIENT = "STORAGE_TRANSIENT: retry after Retry-After seconds";

    static final String READ_ROLES = "Roles: viewer, operator, admin.";

    static final String OPERATE_ROLES = "Roles: operator, admin.";

    static final String ADMIN_ROLES = "Roles: admin.";

    static final String IDEMPOTENCY_KEY = "the operation id of the action: a retried request with the same key "
            + "is answered from the audit record, never applied twice (without it the action gets a fresh one)";

    static final String IF_MATCH = "the execution's version as its ETag, e.g. \"7\": the action is refused "
            + "(412) if the execution moved since";

    static final String CURSOR = "the next of the previous page; absent: the first page";

    static final String SIZE = "items per page, 1 to 500 (default 50)";

    static final String INSTANCE = "only the records of this job instance";

    private ApiDocs() {
    }
}
