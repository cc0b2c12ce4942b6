-- docs/adapters.md §6: a tool is paused for one tenant when that tenant's own credential was refused (401/403), for
-- every tenant ('*') when the shared credential was. The claims skip a call whose tool is paused for its tenant or
-- for '*'. Rows written before this migration were every tenant's pauses and resumes.
ALTER TABLE paused_tool ADD COLUMN tenant_id text NOT NULL DEFAULT '*'
    CONSTRAINT paused_tool_tenant_id CHECK (tenant_id = '*' OR tenant_id ~ '^[A-Za-z0-9._-]{1,64}$');
ALTER TABLE paused_tool ALTER COLUMN tenant_id DROP DEFAULT;
ALTER TABLE paused_tool DROP CONSTRAINT paused_tool_pkey;
ALTER TABLE paused_tool ADD PRIMARY KEY (tool, tenant_id);

-- The pause a resume lifted, or tried to: '*' or one tenant.
ALTER TABLE tool_resume_audit ADD COLUMN tenant_id text NOT NULL DEFAULT '*';
ALTER TABLE tool_resume_audit ALTER COLUMN tenant_id DROP DEFAULT;
