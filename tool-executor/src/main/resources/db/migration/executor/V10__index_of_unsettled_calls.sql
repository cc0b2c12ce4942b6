-- docs/performance.md: the reconciler's claim of UNKNOWN calls (twice a second), the review queue and the ledger
-- gauges read calls in states that no index covered, so each of those reads walked the whole ledger: 28 ms per
-- reconciler poll at 46,000 calls, growing with every call kept. A call that goes PLANNED -> STARTED -> COMMITTED
-- never enters this index, so the hot path does not pay for it.
CREATE INDEX tool_call_unsettled ON tool_call (state, id) WHERE state IN ('UNKNOWN', 'NEEDS_REVIEW');
