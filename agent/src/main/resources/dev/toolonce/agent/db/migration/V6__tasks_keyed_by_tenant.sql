-- docs/security.md §2: a tenant is a boundary in the data, not a dedup namespace. Task ids were global (agent_task was
-- keyed by task_id alone), so two tenants could not use the same id, and a lookup by id alone could reach another
-- tenant's task. Every task table is now keyed by (tenant_id, task_id); agent_task_step gets the tenant it belongs to.
ALTER TABLE agent_task_step ADD COLUMN tenant_id text;
UPDATE agent_task_step s SET tenant_id = t.tenant_id FROM agent_task t WHERE t.task_id = s.task_id;
ALTER TABLE agent_task_step ALTER COLUMN tenant_id SET NOT NULL;

ALTER TABLE agent_task_step DROP CONSTRAINT agent_task_step_task_id_fkey;
ALTER TABLE agent_task_step DROP CONSTRAINT agent_task_step_pkey;
ALTER TABLE agent_task_step DROP CONSTRAINT agent_task_step_task_id_position_key;
ALTER TABLE agent_task DROP CONSTRAINT agent_task_pkey;

ALTER TABLE agent_task ADD PRIMARY KEY (tenant_id, task_id);
ALTER TABLE agent_task_step ADD PRIMARY KEY (tenant_id, task_id, step_id);
ALTER TABLE agent_task_step ADD UNIQUE (tenant_id, task_id, position);
ALTER TABLE agent_task_step ADD FOREIGN KEY (tenant_id, task_id) REFERENCES agent_task (tenant_id, task_id);

ALTER TABLE agent_step DROP CONSTRAINT agent_step_pkey;
ALTER TABLE agent_step ADD PRIMARY KEY (tenant_id, task_id, step_id);
