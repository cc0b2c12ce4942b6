-- The relay's own tables, in each source database next to its replication slot.
-- Debezium's offsets for one slot: they and the slot are reset together, never one alone.
CREATE TABLE toolonce_relay.offsets (
  slot_name  text PRIMARY KEY,
  offsets    text NOT NULL,          -- JSON object: Connect offset key -> offset value
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp());

-- Written by every engine's heartbeat.action.query so that a slot advances on a database whose
-- outbox is quiet. Deliberately NOT in any publication: only the WAL it produces matters.
CREATE TABLE toolonce_relay.heartbeat (
  id        int PRIMARY KEY CHECK (id = 1),
  beat_at   timestamptz NOT NULL,
  slot_name text);
INSERT INTO toolonce_relay.heartbeat (id, beat_at) VALUES (1, clock_timestamp());
