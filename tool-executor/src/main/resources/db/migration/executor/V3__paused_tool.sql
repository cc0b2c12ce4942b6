-- Tools whose credentials were refused (401/403): the dispatcher claims none of their calls until an
-- operator resumes the tool (POST /tools/{tool}/resume, ./toolonce tools resume <tool>).
CREATE TABLE paused_tool (
    tool      text        PRIMARY KEY,
    reason    text        NOT NULL,
    paused_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
