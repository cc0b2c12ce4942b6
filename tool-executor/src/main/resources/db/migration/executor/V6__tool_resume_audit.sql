-- docs/security.md: resuming a paused tool un-pauses it for every tenant, so it is audited like a review resolution,
-- under the authenticated principal (never a name from the request body). Written by PausedToolStore, in the
-- statement that resumes the tool; append-only.
CREATE TABLE tool_resume_audit (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tool       text        NOT NULL,
    principal  text        NOT NULL,
    was_paused boolean     NOT NULL,
    reason     text,
    at         timestamptz NOT NULL DEFAULT clock_timestamp()
);
