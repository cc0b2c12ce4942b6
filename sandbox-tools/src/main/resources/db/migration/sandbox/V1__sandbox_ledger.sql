-- Ground truth of every side effect the sandbox tools performed, plus the providers' own
-- state (charges, refunds, tickets, idempotency keys). Names are schema-qualified so the
-- runtime does not depend on search_path.

CREATE SEQUENCE IF NOT EXISTS sandbox.object_seq;

-- One row per effect identity (tool, operation, effect key).
CREATE TABLE sandbox.effect (
    tool               text        NOT NULL,
    operation          text        NOT NULL,
    effect_key         text        NOT NULL,
    scope              text,
    op_id              text,
    external_object_id text,
    applied_count      integer     NOT NULL DEFAULT 0,
    request_count      integer     NOT NULL DEFAULT 0,
    fences             bigint[]    NOT NULL DEFAULT '{}',
    first_at           timestamptz NOT NULL,
    last_at            timestamptz NOT NULL,
    last_applied_at    timestamptz,
    PRIMARY KEY (tool, operation, effect_key)
);

CREATE INDEX effect_first_at ON sandbox.effect (first_at);

-- Native idempotency of the payments provider: one record per (operation, key).
CREATE TABLE sandbox.idempotency_record (
    operation       text        NOT NULL,
    idempotency_key text        NOT NULL,
    request_body    jsonb       NOT NULL,
    object_id       text        NOT NULL,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (operation, idempotency_key)
);

CREATE TABLE sandbox.charge (
    id         text        PRIMARY KEY,
    amount     bigint      NOT NULL CHECK (amount > 0),
    currency   text        NOT NULL,
    status     text        NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE TABLE sandbox.refund (
    id         text        PRIMARY KEY,
    charge_id  text        NOT NULL UNIQUE REFERENCES sandbox.charge (id),
    status     text        NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE TABLE sandbox.ticket (
    id                 text        PRIMARY KEY,
    external_reference text        NOT NULL UNIQUE,
    title              text,
    status             text        NOT NULL,
    created_at         timestamptz NOT NULL
);
