-- An idempotency key (operation id) is its caller's own: the same key sent by another actor is
-- another operation, never answered from the first one's record. Each audit's unique key, and the
-- recovery decision's, gains the actor; rows recorded so far stay unique under the wider key.
ALTER TABLE ${prefix}operator_request
    DROP CONSTRAINT ${prefix}operator_request_operation_uq,
    ADD CONSTRAINT ${prefix}operator_request_operation_uq UNIQUE (action, actor, operation_id);
ALTER TABLE ${prefix}retention_action
    DROP CONSTRAINT ${prefix}retention_action_operation_uq,
    ADD CONSTRAINT ${prefix}retention_action_operation_uq UNIQUE (action, actor, operation_id);
ALTER TABLE ${prefix}recovery_decision
    DROP CONSTRAINT ${prefix}recovery_decision_operation_uq,
    ADD CONSTRAINT ${prefix}recovery_decision_operation_uq UNIQUE (actor, operation_id);
