package io.durablebatch.rest.runtime;

import java.util.List;

/** A purge: the candidates of a survey, sent back unchanged. */
public record PurgeRequest(List<PurgeCandidateView> candidates) {
}
