-- The source's signature of each result (docs/contract.md §4a), computed when the row is written and published by the
-- relay as the toolonce-signature header. Null only on rows written before signing existed.
ALTER TABLE outbox_event ADD COLUMN signature text;
