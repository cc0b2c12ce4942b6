-- docs/contract.md §14: the W3C traceparent an intent arrived with, carried to the tool call and back on its
-- answer. Stored per addressee: the call's own intent (tool_call) and each waiting duplicate (pending_reply),
-- since every intent message is answered with its own trace. At most 55 characters (version 00); the executor
-- stores only values it validated.
ALTER TABLE tool_call ADD COLUMN traceparent text;
ALTER TABLE pending_reply ADD COLUMN traceparent text;
