package io.durablebatch.rest.runtime;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

/** One instance with its attempts in creation order and its retention hold, if one is in place. */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record InstanceDetail(InstanceView instance, List<ExecutionView> executions, Optional<HoldView> hold) {
}
