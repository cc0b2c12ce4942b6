-- docs/protocol.md §13: a call of a task the agent reports open is never purged. One row per open task,
-- written from the agent's task events (toolonce.agent-tasks); version orders the events of one task.
CREATE TABLE task_hold (
    tenant_id  text        NOT NULL,
    task_id    text        NOT NULL,
    version    bigint      NOT NULL,
    open       boolean     NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (tenant_id, task_id)
);

