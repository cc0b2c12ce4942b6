-- Issue 22, point 4: an application's own tool method run effectively once (LocalCalls, docs/agent-calls.md §8).
-- One row per call, claimed (RUNNING) and committed before the method runs, so that a re-run of the turn never runs it
-- again: it reads the answer (DONE, FAILED) or, when the claim's holder died mid-call, holds the call for a person
-- (NEEDS_REVIEW) — at most one effect, or a review.
CREATE TABLE local_call (
    tenant_id        text        NOT NULL,
    conversation_id  text        NOT NULL,
    name             text        NOT NULL,
    idempotency_key  text        NOT NULL,
    request_hash     text        NOT NULL,
    state            text        NOT NULL CHECK (state IN ('RUNNING', 'DONE', 'FAILED', 'NEEDS_REVIEW')),
    answer           text,
    error_message    text,
    claimed_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at      timestamptz,
    resolved_by      text,
    resolution_reason text,
    PRIMARY KEY (tenant_id, conversation_id, name, idempotency_key)
);
CREATE INDEX local_call_review ON local_call (tenant_id, claimed_at) WHERE state = 'NEEDS_REVIEW';
