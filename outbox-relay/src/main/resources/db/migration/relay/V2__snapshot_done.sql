-- One row per replication slot whose outbox snapshot completed: every outbox row committed before
-- the slot existed has been published. Written only after the last row of the snapshot was
-- acknowledged by Kafka, deleted whenever the slot is created or advanced, so that a crash during
-- a snapshot (or a new slot) means "snapshot again", never "skip".
CREATE TABLE toolonce_relay.snapshot_done (
  slot_name    text PRIMARY KEY,
  rows_sent    bigint NOT NULL,
  completed_at timestamptz NOT NULL DEFAULT clock_timestamp());
