-- docs/protocol.md §4 ("Facts in columns"): facts of the protocol that were kept in text become typed columns, so
-- that no decision reads a LIKE on a message and rewording one changes nothing. Existing rows are carried over from
-- the text they were read from until now.

-- What a call is: an action, a compensation (operation '<op>.compensate') or a dry run ('<op>.dry-run').
ALTER TABLE tool_call ADD COLUMN kind text NOT NULL DEFAULT 'ACTION'
    CHECK (kind IN ('ACTION', 'COMPENSATION', 'DRY_RUN'));
UPDATE tool_call SET kind = 'COMPENSATION' WHERE operation LIKE '_%.compensate';
UPDATE tool_call SET kind = 'DRY_RUN' WHERE operation LIKE '_%.dry-run';

-- An attempt since the last confirmed absence may have applied: was error_code = 'EFFECT_POSSIBLE'.
ALTER TABLE tool_call ADD COLUMN effect_possible boolean NOT NULL DEFAULT false;
UPDATE tool_call SET effect_possible = true WHERE error_code = 'EFFECT_POSSIBLE';

-- Lookups failed in a row since the latest claim: were history rows 'LOOKUP_UNAVAILABLE: …' after the last STARTED.
ALTER TABLE tool_call ADD COLUMN lookup_failures int NOT NULL DEFAULT 0 CHECK (lookup_failures >= 0);
UPDATE tool_call c
   SET lookup_failures = (SELECT count(*) FROM tool_call_attempt a
                           WHERE a.call_id = c.id AND a.detail LIKE 'LOOKUP\_UNAVAILABLE:%'
                             AND a.id > coalesce((SELECT max(b.id) FROM tool_call_attempt b
                                                   WHERE b.call_id = c.id AND b.to_state = 'STARTED'), 0))
 WHERE c.state IN ('UNKNOWN', 'RECONCILING', 'NEEDS_REVIEW');

-- A fenced-out attempt reported the effect applied: were history rows 'EVIDENCE …'. The evidence itself stays in the
-- history; this says that there is some.
ALTER TABLE tool_call ADD COLUMN evidence_of_effect boolean NOT NULL DEFAULT false;
UPDATE tool_call c SET evidence_of_effect = true
 WHERE EXISTS (SELECT 1 FROM tool_call_attempt a WHERE a.call_id = c.id AND a.detail LIKE 'EVIDENCE %');

-- A compensation held back until its original can be undone: was next_attempt_at = 'infinity'.
ALTER TABLE tool_call ADD COLUMN held boolean NOT NULL DEFAULT false;
UPDATE tool_call SET held = true, next_attempt_at = NULL WHERE state = 'PLANNED' AND next_attempt_at = 'infinity';
DROP INDEX tool_call_held_compensation;
CREATE INDEX tool_call_held_compensation ON tool_call (id) WHERE held;
ALTER TABLE tool_call ADD CONSTRAINT tool_call_held_is_a_planned_compensation
    CHECK (NOT held OR (state = 'PLANNED' AND kind = 'COMPENSATION'));
