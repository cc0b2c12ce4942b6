-- Issue 20, point 2: one model of a step's calls. agent_step is the only record of each call's outcome — one row per
-- call: the step's own, its dry run (one per argument version, so the key is part of the key) and its compensation —
-- and agent_task_step keeps only the plan and the saga's state. What the saga reads of its calls' outcomes is the
-- view agent_task_step_outcome, a join on (tenant, task, task step, part, key) (docs/agent-tasks.md §4a).

-- 1. A dry run of new arguments has a key of its own under the same wire step id (<step>.dry-run): its row is a row.
ALTER TABLE agent_step DROP CONSTRAINT agent_step_pkey;
ALTER TABLE agent_step ADD PRIMARY KEY (tenant_id, task_id, step_id, idempotency_key);

-- 2. Every message id an intent of this call was published under: a resume re-publishes the same intent under a new
-- one, and a rejection answering either answers the call's own intent. intent_message_id stays the first.
ALTER TABLE agent_step ADD COLUMN intent_message_ids text[];
UPDATE agent_step SET intent_message_ids = ARRAY[intent_message_id];
ALTER TABLE agent_step ALTER COLUMN intent_message_ids SET NOT NULL;

-- 3. The key the step's dry run is sent under for its current arguments: plan, like idempotency_key (StepKeys).
ALTER TABLE agent_task_step ADD COLUMN dry_run_key text;
UPDATE agent_task_step SET dry_run_key = tenant_id || ':' || task_id || ':' || step_id || '.dry-run:' || arg_version;
ALTER TABLE agent_task_step ALTER COLUMN dry_run_key SET NOT NULL;

-- 4. History: both tables were moved by every result, so they agree but where the old engine and the old agent_step
-- disagreed. Whichever applied the newer call version wins; an outcome the task step holds of a call with no
-- agent_step row (a second dry run, whose insert the old key refused) gets the row it lacked.
UPDATE agent_step a
   SET call_version = s.call_version, external_object_id = coalesce(s.external_object_id, a.external_object_id),
       result = coalesce(s.result, a.result), updated_at = clock_timestamp()
  FROM agent_task_step s
 WHERE a.tenant_id = s.tenant_id AND a.task_id = s.task_id AND a.task_step_id = s.step_id AND a.part = 'ACTION'
   AND a.idempotency_key = s.idempotency_key AND s.call_version > a.call_version;
UPDATE agent_step a
   SET call_version = s.compensation_version,
       external_object_id = coalesce(s.compensation_external_id, a.external_object_id), updated_at = clock_timestamp()
  FROM agent_task_step s
 WHERE a.tenant_id = s.tenant_id AND a.task_id = s.task_id AND a.task_step_id = s.step_id AND a.part = 'COMPENSATION'
   AND a.idempotency_key = s.idempotency_key AND s.compensation_version > a.call_version;
UPDATE agent_step a
   SET call_version = s.dry_run_version, updated_at = clock_timestamp()
  FROM agent_task_step s
 WHERE a.tenant_id = s.tenant_id AND a.task_id = s.task_id AND a.task_step_id = s.step_id AND a.part = 'DRY_RUN'
   AND a.idempotency_key = s.dry_run_key AND s.dry_run_version > a.call_version;

-- A row made here names no intent the agent still knows the message id of ('migrated'): no rejection is its own.
INSERT INTO agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key, intent_message_id,
                        intent_message_ids, status, call_version, external_object_id, result, part, task_step_id)
SELECT s.task_id, s.step_id, s.tenant_id, s.tool, s.operation, s.idempotency_key, 'migrated', '{}',
       CASE s.state WHEN 'COMPENSATING' THEN 'COMMITTED' WHEN 'COMPENSATION_REVIEW' THEN 'COMMITTED'
                    WHEN 'COMPENSATED' THEN 'COMPENSATED' WHEN 'FAILED' THEN 'FAILED_FINAL'
                    WHEN 'NEEDS_REVIEW' THEN 'NEEDS_REVIEW' ELSE 'COMMITTED' END,
       s.call_version, s.external_object_id, s.result, 'ACTION', s.step_id
  FROM agent_task_step s
 WHERE s.call_version >= 0 AND NOT EXISTS (SELECT 1 FROM agent_step a WHERE a.tenant_id = s.tenant_id
       AND a.task_id = s.task_id AND a.task_step_id = s.step_id AND a.part = 'ACTION'
       AND a.idempotency_key = s.idempotency_key);
INSERT INTO agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key, intent_message_id,
                        intent_message_ids, status, call_version, external_object_id, part, task_step_id)
SELECT s.task_id, s.step_id || '.compensate', s.tenant_id, s.tool, s.operation || '.compensate', s.idempotency_key,
       'migrated', '{}', CASE WHEN s.state = 'COMPENSATED' THEN 'COMMITTED' ELSE 'NEEDS_REVIEW' END,
       s.compensation_version, s.compensation_external_id, 'COMPENSATION', s.step_id
  FROM agent_task_step s
 WHERE s.compensation_version >= 0 AND NOT EXISTS (SELECT 1 FROM agent_step a WHERE a.tenant_id = s.tenant_id
       AND a.task_id = s.task_id AND a.task_step_id = s.step_id AND a.part = 'COMPENSATION'
       AND a.idempotency_key = s.idempotency_key);
INSERT INTO agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key, intent_message_id,
                        intent_message_ids, status, call_version, part, task_step_id)
SELECT s.task_id, s.step_id || '.dry-run', s.tenant_id, s.tool, s.operation || '.dry-run', s.dry_run_key,
       'migrated', '{}', CASE WHEN s.dry_run_passed_key = s.idempotency_key THEN 'COMMITTED'
                              WHEN s.state = 'FAILED' THEN 'FAILED_FINAL' ELSE 'NEEDS_REVIEW' END,
       s.dry_run_version, 'DRY_RUN', s.step_id
  FROM agent_task_step s
 WHERE s.dry_run_version >= 0 AND NOT EXISTS (SELECT 1 FROM agent_step a WHERE a.tenant_id = s.tenant_id
       AND a.task_id = s.task_id AND a.task_step_id = s.step_id AND a.part = 'DRY_RUN'
       AND a.idempotency_key = s.dry_run_key);

-- 5. The task step keeps its plan and its saga: state, approvals, publications, times, and error_code/error_message,
-- the saga's reason for the state it moved the step to (a failed dry run reads "dry run: …").
ALTER TABLE agent_task_step
    DROP COLUMN call_version,
    DROP COLUMN compensation_version,
    DROP COLUMN dry_run_version,
    DROP COLUMN external_object_id,
    DROP COLUMN result,
    DROP COLUMN compensation_external_id;

-- 6. The task step with its calls' outcomes, as the engine reads it: each part's row of the step's current key, found
-- by its primary key (the wire step id of a part is <step>, <step>.compensate, <step>.dry-run), so at most one each.
CREATE VIEW agent_task_step_outcome AS
SELECT s.*,
       coalesce(a.call_version, -1)     AS call_version,
       a.external_object_id             AS external_object_id,
       a.result                         AS result,
       a.result_message_id              AS result_message_id,
       coalesce(c.call_version, -1)     AS compensation_version,
       c.external_object_id             AS compensation_external_id,
       coalesce(d.call_version, -1)     AS dry_run_version
  FROM agent_task_step s
  LEFT JOIN agent_step a ON a.tenant_id = s.tenant_id AND a.task_id = s.task_id AND a.task_step_id = s.step_id
        AND a.part = 'ACTION' AND a.idempotency_key = s.idempotency_key AND a.step_id = s.step_id
  LEFT JOIN agent_step c ON c.tenant_id = s.tenant_id AND c.task_id = s.task_id AND c.task_step_id = s.step_id
        AND c.part = 'COMPENSATION' AND c.idempotency_key = s.idempotency_key AND c.step_id = s.step_id || '.compensate'
  LEFT JOIN agent_step d ON d.tenant_id = s.tenant_id AND d.task_id = s.task_id AND d.task_step_id = s.step_id
        AND d.part = 'DRY_RUN' AND d.idempotency_key = s.dry_run_key AND d.step_id = s.step_id || '.dry-run';
