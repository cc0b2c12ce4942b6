-- The agent's signature of each intent, compensation request and task event (docs/contract.md §4a), computed when the
-- row is written and published by the relay as the toolonce-signature header.
ALTER TABLE outbox_event ADD COLUMN signature text;
