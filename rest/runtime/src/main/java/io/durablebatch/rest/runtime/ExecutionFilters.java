package io.durablebatch.rest.runtime;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestQuery;

import io.durablebatch.execution.JobName;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.control.OwnerToken;

/**
 * The filters of the executions listing ({@code @BeanParam}): every one optional, all given ones
 * must hold. (Public: Quarkus REST injects it from generated code.)
 */
public class ExecutionFilters {

    @Parameter(description = "only this job")
    @RestQuery
    String job;

    @Parameter(description = "only these statuses (repeatable)")
    @RestQuery
    List<String> status;

    @Parameter(description = "created at or after this ISO-8601 instant")
    @RestQuery
    String createdFrom;

    @Parameter(description = "created before this ISO-8601 instant")
    @RestQuery
    String createdBefore;

    @Parameter(description = "only those this owner token holds")
    @RestQuery
    String owner;

    /** The query of these filters; a value a filter cannot take is refused, naming the filter. */
    ExecutionQuery query() {
        ExecutionQuery query = ExecutionQuery.all().statuses(QueryValues.statuses(status));
        if (job != null) {
            query = query.job(JobName.of(job));
        }
        if (createdFrom != null) {
            query = query.createdFrom(QueryValues.instant(createdFrom, "createdFrom"));
        }
        if (createdBefore != null) {
            query = query.createdBefore(QueryValues.instant(createdBefore, "createdBefore"));
        }
        if (owner != null) {
            query = query.ownedBy(OwnerToken.of(owner));
        }
        return query;
    }
}
