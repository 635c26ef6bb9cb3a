-- Flows (plan format 2): logical node ids on step attempts, the starts each node consumed per
-- instance, and the append-only route decisions a restart replays.
-- Shipped migrations are never edited: later changes are new versions.

-- The logical node a flow step attempt ran; NULL for steps started without a flow plan.
ALTER TABLE ${prefix}step_execution ADD COLUMN node_id varchar(100);
-- The latest attempt of one node in one instance: latestFlowStep and "has the target started".
CREATE INDEX ${prefix}step_execution_node_ix ON ${prefix}step_execution (job_instance_id, node_id, id)
    WHERE node_id IS NOT NULL;

-- The starts one node consumed across every execution of its instance. Starting the node upserts
-- this row, so racing starters queue on its row lock and the limit is checked against the latest
-- count; a rolled-back start gives its start back.
CREATE TABLE ${prefix}flow_node (
    job_instance_id bigint       NOT NULL REFERENCES ${prefix}job_instance (id),
    node_id         varchar(100) NOT NULL,
    starts          integer      NOT NULL CHECK (starts > 0),
    PRIMARY KEY (job_instance_id, node_id)
);

-- One route decision of one execution, numbered without gaps in the order it was appended.
CREATE TABLE ${prefix}flow_decision (
    job_execution_id    bigint       NOT NULL REFERENCES ${prefix}job_execution (id),
    sequence            integer      NOT NULL CHECK (sequence > 0),
    job_instance_id     bigint       NOT NULL REFERENCES ${prefix}job_instance (id),
    from_node           varchar(100) NOT NULL,
    to_node             varchar(100),
    kind                varchar(16)  NOT NULL CHECK (kind IN ('NEXT', 'DECISION', 'END', 'FAIL', 'STOP')),
    plan_fingerprint    bytea        NOT NULL CHECK (octet_length(plan_fingerprint) = 32),
    input_digest        bytea        NOT NULL CHECK (octet_length(input_digest) = 32),
    outcome_code        varchar(100) NOT NULL,
    outcome_description text         NOT NULL DEFAULT '',
    decided_at          timestamptz  NOT NULL,
    PRIMARY KEY (job_execution_id, sequence)
);
-- findReusableFlowDecision: the decisions of one node of one instance with one durable input.
CREATE INDEX ${prefix}flow_decision_reuse_ix ON ${prefix}flow_decision (job_instance_id, from_node, input_digest);

-- The last sequence number given out per execution. Appending upserts this row, so concurrent
-- appenders in one execution (parallel flows) are numbered one after the other, without gaps.
CREATE TABLE ${prefix}flow_decision_head (
    job_execution_id bigint  PRIMARY KEY REFERENCES ${prefix}job_execution (id),
    last_sequence    integer NOT NULL CHECK (last_sequence > 0)
);
