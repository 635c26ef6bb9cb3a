package io.durablebatch.operator;

import java.util.UUID;

import io.durablebatch.Checks;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.OperationId;

/**
 * Who asks the {@link JobOperator} for something, and the idempotency key of the request:
 * repeating a call with the same operation id is answered from the operator audit record instead of
 * being applied twice.
 */
public record OperatorCall(OperationId operationId, ActorRef actor) {

    public OperatorCall {
        Checks.notNull(operationId, "operationId");
        Checks.notNull(actor, "actor");
    }

    public static OperatorCall of(String operationId, String actor) {
        return new OperatorCall(OperationId.of(operationId), ActorRef.of(actor));
    }

    /** A call by {@code actor} with a fresh, random operation id: for requests that are never retried. */
    public static OperatorCall by(String actor) {
        return of(UUID.randomUUID().toString(), actor);
    }
}
