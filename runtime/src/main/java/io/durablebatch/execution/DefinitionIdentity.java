package io.durablebatch.execution;

import io.durablebatch.Checks;

/**
 * The exact restart-relevant definition of a job: its name, a revision label chosen by the user and
 * the fingerprint of its plan. A checkpoint made under one identity is restarted only under the
 * same identity or one reachable by a single registered repository {@code DefinitionUpgrade}.
 */
public record DefinitionIdentity(JobName jobName, String revision, PlanFingerprint fingerprint) {

    public static final int MAX_REVISION_LENGTH = 100;

    public DefinitionIdentity {
        Checks.notNull(jobName, "definition.jobName");
        Checks.text(revision, "definition.revision", MAX_REVISION_LENGTH);
        Checks.notNull(fingerprint, "definition.fingerprint");
    }
}
