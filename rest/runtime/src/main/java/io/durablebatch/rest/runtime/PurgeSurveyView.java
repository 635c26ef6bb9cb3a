package io.durablebatch.rest.runtime;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A purge survey's candidates, in instance id order; {@code resumeAfter}, present when the limit
 * was reached, is the {@code after} of the next survey.
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record PurgeSurveyView(List<PurgeCandidateView> candidates, Optional<Long> resumeAfter) {
}
