package io.durablebatch.repository;

import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.JobInstanceId;

/**
 * What a launch or restart attempt is created from: the instance, the exact definition the attempt
 * runs under when the caller binds one, and the attempt's own non-identifying parameters.
 * {@code JobExecutionRequest.of(instance)} is the SPEC's {@code createJobExecution(instance)};
 * {@code .definedBy(definition)} its {@code createJobExecution(instance, definition)}.
 */
public record JobExecutionRequest(JobInstanceId jobInstanceId, Optional<DefinitionIdentity> definition,
        ExecutionParameters parameters) {

    public JobExecutionRequest {
        Checks.notNull(jobInstanceId, "jobInstanceId");
        Checks.notNull(definition, "definition");
        Checks.notNull(parameters, "parameters");
    }

    /** An attempt of {@code jobInstanceId}, bound to no definition, without non-identifying parameters. */
    public static JobExecutionRequest of(JobInstanceId jobInstanceId) {
        return new JobExecutionRequest(jobInstanceId, Optional.empty(), ExecutionParameters.NONE);
    }

    /**
     * This request bound to an exact definition. A restart must use the definition of the latest
     * attempt that recorded one, or one reachable from it by a single registered upgrade edge.
     */
    public JobExecutionRequest definedBy(DefinitionIdentity definition) {
        return new JobExecutionRequest(jobInstanceId, Optional.of(Checks.notNull(definition, "definition")),
                parameters);
    }

    /** This request with the attempt's non-identifying parameters; each attempt has its own. */
    public JobExecutionRequest withParameters(ExecutionParameters parameters) {
        return new JobExecutionRequest(jobInstanceId, definition, parameters);
    }
}
