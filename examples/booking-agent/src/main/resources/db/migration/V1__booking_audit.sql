-- The application's own table, in the application's own Flyway history (public.flyway_schema_history). The
-- starter's agent schema is migrated apart, from migrations outside db/migration, into agent.flyway_schema_history.
CREATE TABLE booking_audit (
    id          bigserial PRIMARY KEY,
    task_id     text,
    step_id     text,
    status      text NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now()
);
