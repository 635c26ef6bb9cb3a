package io.durablebatch.runtime.repository;

import java.util.Map;

import io.durablebatch.execution.ParameterDomain;
import io.durablebatch.execution.ParameterValue;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;

/**
 * The repository's refusal of a parameter outside {@link ParameterDomain}, made before a statement
 * runs: whatever the door (the Java operator, the REST API, Jakarta properties, the Dev UI), a new
 * key or attempt holds only values that read back exactly.
 */
public final class ParameterDomainCheck {

    private ParameterDomainCheck() {
    }

    /** @throws RepositoryException {@code PARAMETER_OUT_OF_DOMAIN} naming the first parameter outside the domain */
    public static void require(Map<String, ParameterValue> parameters) {
        ParameterDomain.violation(parameters).ifPresent(why -> {
            throw new RepositoryException(RepositoryError.PARAMETER_OUT_OF_DOMAIN, why);
        });
    }
}
