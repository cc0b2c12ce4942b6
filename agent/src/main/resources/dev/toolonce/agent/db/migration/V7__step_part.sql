-- docs/agent-tasks.md §4: which of a task step's calls an agent_step row is — the step's own call, its dry run or its
-- compensation — is a fact in a column, not a name to parse. task_step_id is the step of the task it belongs to
-- (agent_task_step.step_id), step_id stays the id on the wire (docs/contract.md: <step>.dry-run, <step>.compensate).
-- Existing rows are carried over by the names the agent gave them (StepPart.of reads the operation, as the engine did;
-- the step id loses the part's suffix when it carries it).
ALTER TABLE agent_step ADD COLUMN part text NOT NULL DEFAULT 'ACTION'
    CHECK (part IN ('ACTION', 'DRY_RUN', 'COMPENSATION'));
ALTER TABLE agent_step ADD COLUMN task_step_id text;

UPDATE agent_step SET part = 'COMPENSATION'
 WHERE right(operation, length('.compensate')) = '.compensate' AND length(operation) > length('.compensate');
UPDATE agent_step SET part = 'DRY_RUN'
 WHERE part = 'ACTION' AND right(operation, length('.dry-run')) = '.dry-run' AND length(operation) > length('.dry-run');
UPDATE agent_step SET task_step_id = CASE
        WHEN part = 'COMPENSATION' AND right(step_id, length('.compensate')) = '.compensate'
            THEN left(step_id, length(step_id) - length('.compensate'))
        WHEN part = 'DRY_RUN' AND right(step_id, length('.dry-run')) = '.dry-run'
            THEN left(step_id, length(step_id) - length('.dry-run'))
        ELSE step_id END;

ALTER TABLE agent_step ALTER COLUMN task_step_id SET NOT NULL;
ALTER TABLE agent_step ALTER COLUMN part DROP DEFAULT;
CREATE INDEX agent_step_task_step ON agent_step (tenant_id, task_id, task_step_id, part);
