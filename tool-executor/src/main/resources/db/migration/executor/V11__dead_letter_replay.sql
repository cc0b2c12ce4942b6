-- docs/operations.md §4 (Operator API v1, dead letters): an operator's replay of a dead-lettered record back to the
-- topic it came from is audited like a review resolution, under the authenticated principal, with the reason the
-- operator gave and where the record went. Written by DeadLetterReplayStore after the broker acknowledged the
-- replayed record; append-only.
CREATE TABLE dead_letter_replay (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dlq_topic          text        NOT NULL,
    dlq_partition      integer     NOT NULL,
    dlq_offset         bigint      NOT NULL,
    error_code         text,
    tenant_id          text,
    message_id         text,
    to_topic           text        NOT NULL,
    to_partition       integer     NOT NULL,
    to_offset          bigint      NOT NULL,
    principal          text        NOT NULL,
    reason             text        NOT NULL,
    at                 timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX dead_letter_replay_record ON dead_letter_replay (dlq_topic, dlq_partition, dlq_offset);
