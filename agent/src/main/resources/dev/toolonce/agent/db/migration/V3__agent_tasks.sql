-- docs/agent-tasks.md: an agent task's checkpoint. The task row is the lock every change of the task takes
-- (SELECT … FOR UPDATE), so results of one task arriving on different partitions and threads apply one at a
-- time; version grows with every change and orders the task's events.
CREATE TABLE agent_task (
    task_id       text        PRIMARY KEY,
    tenant_id     text        NOT NULL,
    state         text        NOT NULL,
    version       bigint      NOT NULL DEFAULT 1,
    failed_step   text,
    note          text,
    created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at   timestamptz
);
CREATE INDEX agent_task_open ON agent_task (updated_at)
    WHERE state NOT IN ('SUCCEEDED', 'COMPENSATED', 'FAILED');

-- One row per planned step, in plan order. idempotency_key is derived (tenant:task:step:version) and changes
-- only with arg_version, which only a change of arguments before the step was sent can raise.
CREATE TABLE agent_task_step (
    task_id                  text        NOT NULL REFERENCES agent_task (task_id),
    step_id                  text        NOT NULL,
    position                 int         NOT NULL,
    tool                     text        NOT NULL,
    operation                text        NOT NULL,
    arguments                text        NOT NULL,
    arg_version              int         NOT NULL DEFAULT 1,
    idempotency_key          text        NOT NULL,
    compensable              boolean     NOT NULL,
    irreversible             boolean     NOT NULL,
    needs_approval           boolean     NOT NULL,
    approved_key             text,
    approved_by              text,
    approved_at              timestamptz,
    state                    text        NOT NULL,
    call_version             bigint      NOT NULL DEFAULT -1,
    compensation_version     bigint      NOT NULL DEFAULT -1,
    external_object_id       text,
    result                   text,
    error_code               text,
    error_message            text,
    compensation_external_id text,
    publishes                int         NOT NULL DEFAULT 0,
    started_at               timestamptz,
    finished_at              timestamptz,
    compensation_started_at  timestamptz,
    compensated_at           timestamptz,
    updated_at               timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (task_id, step_id),
    UNIQUE (task_id, position)
);
