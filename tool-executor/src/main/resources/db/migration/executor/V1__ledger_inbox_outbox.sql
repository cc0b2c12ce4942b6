-- The executor's ledger: one row per call scope, the source of truth for every call (DESIGN.md points 3-5).
CREATE TABLE tool_call (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id           text        NOT NULL,
    tool                text        NOT NULL,
    operation           text        NOT NULL,
    idempotency_key     text        NOT NULL,
    provider_key        text        NOT NULL,
    request_hash        text        NOT NULL,
    arguments           text        NOT NULL,
    state               text        NOT NULL CHECK (state IN ('PLANNED', 'STARTED', 'COMMITTED', 'FAILED_RETRYABLE',
                            'FAILED_FINAL', 'UNKNOWN', 'RECONCILING', 'COMPENSATING', 'COMPENSATED', 'NEEDS_REVIEW')),
    fence               bigint      NOT NULL DEFAULT 0,
    call_version        bigint      NOT NULL DEFAULT 0,
    lease_owner         text,
    lease_expires_at    timestamptz,
    attempts            int         NOT NULL DEFAULT 0,
    next_attempt_at     timestamptz,
    external_object_id  text,
    external_request_id text,
    result              text,
    error_class         text,
    error_code          text,
    error_message       text,
    task_id             text,
    step_id             text,
    intent_message_id   text        NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    started_at          timestamptz,
    terminal_at         timestamptz,
    updated_at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT tool_call_scope UNIQUE (tenant_id, tool, operation, idempotency_key)
);
-- The dispatcher's claim query scans only due work.
CREATE INDEX tool_call_due ON tool_call (id) WHERE state IN ('PLANNED', 'FAILED_RETRYABLE');
CREATE INDEX tool_call_lease ON tool_call (lease_expires_at) WHERE state IN ('STARTED', 'RECONCILING');
CREATE INDEX tool_call_terminal ON tool_call (terminal_at) WHERE terminal_at IS NOT NULL;

-- Every transition and attempt, with its fence, so recovery times can be computed.
CREATE TABLE tool_call_attempt (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    call_id    bigint      NOT NULL REFERENCES tool_call (id) ON DELETE CASCADE,
    fence      bigint      NOT NULL,
    from_state text,
    to_state   text        NOT NULL,
    detail     text,
    at         timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX tool_call_attempt_call ON tool_call_attempt (call_id);

-- Duplicates that arrived while their call was in flight; answered when it completes.
CREATE TABLE pending_reply (
    call_id           bigint      NOT NULL REFERENCES tool_call (id) ON DELETE CASCADE,
    intent_message_id text        NOT NULL,
    task_id           text,
    step_id           text,
    created_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (call_id, intent_message_id)
);

-- The idempotent consumer's memory (DESIGN.md point 11).
CREATE TABLE inbox_message (
    consumer_group  text        NOT NULL,
    message_id      text        NOT NULL,
    payload_hash    text        NOT NULL,
    topic           text,
    kafka_partition int,
    kafka_offset    bigint,
    received_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (consumer_group, message_id)
);
CREATE INDEX inbox_message_received ON inbox_message (received_at);

-- Result events leave through here, in the transaction of the state change they report.
CREATE TABLE outbox_event (
    id             uuid        PRIMARY KEY,
    aggregate_type text        NOT NULL,
    aggregate_id   text        NOT NULL,
    event_type     text        NOT NULL,
    source         text        NOT NULL,
    subject        text,
    payload        text        NOT NULL CHECK (octet_length(payload) <= 1048576),
    traceparent    text,
    created_at     timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX outbox_event_created ON outbox_event (created_at);
CREATE PUBLICATION ${publication} FOR TABLE outbox_event WITH (publish = 'insert');
