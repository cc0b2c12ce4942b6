-- docs/agent-tasks.md §7a: a step may ask for its tool's dry run first. dry_run_passed_key is the step key whose
-- arguments passed it (a change of arguments makes a new key, so it needs a new dry run, as it needs a new approval);
-- dry_run_version orders the results of the dry run of the current key.
ALTER TABLE agent_task_step
    ADD COLUMN dry_run            boolean NOT NULL DEFAULT false,
    ADD COLUMN dry_run_passed_key text,
    ADD COLUMN dry_run_version    bigint  NOT NULL DEFAULT -1;
