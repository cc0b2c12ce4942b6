-- Issue 22, point 1: an awaitable call asked for again under its key is answered from its agent_step row, without a
-- second intent, only when it is the same request; the request hash (docs/contract.md §9, as the executor computes it)
-- is what says so. Null on rows published before this version: those are answered from the row, unchecked.
ALTER TABLE agent_step ADD COLUMN request_hash text;
