-- docs/protocol.md §17: compensations wait with next_attempt_at = 'infinity' until their original is
-- COMPENSATING, and originals under compensation are settled when their compensation ends. Both are looked
-- for every reconcile interval; these partial indexes keep that cheap on a large ledger.
CREATE INDEX tool_call_held_compensation ON tool_call (id) WHERE state = 'PLANNED' AND next_attempt_at = 'infinity';
CREATE INDEX tool_call_compensating ON tool_call (id) WHERE state = 'COMPENSATING';

-- docs/protocol.md §16: operators gain the "compensate" resolution.
ALTER TABLE review_audit DROP CONSTRAINT review_audit_action_check;
ALTER TABLE review_audit ADD CONSTRAINT review_audit_action_check
    CHECK (action IN ('commit', 'retry', 'fail', 'compensate'));
