-- The agent side: one row per step of an agent task, written with its intent in one transaction
-- (IntentPublisher) and updated by the result consumer with newer call versions only.
CREATE TABLE agent_step (
    task_id            text        NOT NULL,
    step_id            text        NOT NULL,
    tenant_id          text        NOT NULL,
    tool               text        NOT NULL,
    operation          text        NOT NULL,
    idempotency_key    text        NOT NULL,
    intent_message_id  text        NOT NULL,
    status             text        NOT NULL DEFAULT 'PENDING',
    call_version       bigint      NOT NULL DEFAULT -1,
    external_object_id text,
    result             text,
    error_code         text,
    error_message      text,
    result_message_id  text,
    created_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (task_id, step_id)
);

-- Results that answered an intent of this agent but changed no step (stale versions, rejections of
-- conflicting requests, intents published without a step): kept so nothing is silently dropped.
CREATE TABLE step_result_log (
    result_message_id text        PRIMARY KEY,
    intent_message_id text        NOT NULL,
    task_id           text,
    step_id           text,
    status            text        NOT NULL,
    call_version      bigint      NOT NULL,
    applied           boolean     NOT NULL,
    reason            text        NOT NULL,
    received_at       timestamptz NOT NULL DEFAULT clock_timestamp()
);

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
