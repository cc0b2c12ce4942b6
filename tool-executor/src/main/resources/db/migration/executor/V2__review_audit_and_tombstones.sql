-- Every operator resolution of a NEEDS_REVIEW call (DESIGN.md point 15).
CREATE TABLE review_audit (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    call_id     bigint      NOT NULL,
    scope       text        NOT NULL,
    action      text        NOT NULL CHECK (action IN ('commit', 'retry', 'fail')),
    external_id text,
    operator    text        NOT NULL,
    note        text,
    fence       bigint      NOT NULL,
    at          timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- What outlives a purged call (DESIGN.md point 10): enough to refuse a late duplicate knowingly.
CREATE TABLE tool_call_tombstone (
    tenant_id          text        NOT NULL,
    tool               text        NOT NULL,
    operation          text        NOT NULL,
    idempotency_key    text        NOT NULL,
    request_hash       text        NOT NULL,
    state              text        NOT NULL,
    external_object_id text,
    terminal_at        timestamptz NOT NULL,
    purged_at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (tenant_id, tool, operation, idempotency_key)
);
