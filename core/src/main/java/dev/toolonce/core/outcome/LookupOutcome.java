package dev.toolonce.core.outcome;

import java.time.Duration;

/**
 * What a tool said when asked, by provider key or reference, whether an earlier attempt took effect
 * (docs/protocol.md §10, docs/adapters.md §4). The reconciler never calls the tool's effect itself.
 */
public sealed interface LookupOutcome {

    /** The effect exists; {@code externalObjectId} names it. */
    record Found(String externalObjectId, String resultJson) implements LookupOutcome {
    }

    /** The tool confirms that no such effect exists. */
    record Absent() implements LookupOutcome {
    }

    /**
     * The lookup failed in a way that may pass (timeout, connection failure, 429, 5xx): ask again later,
     * after at least {@code retryAfter} (nullable). Only when lookups keep failing does a human decide.
     */
    record Unavailable(String reason, Duration retryAfter) implements LookupOutcome {
    }

    /** The tool cannot be asked, or its answer cannot be read: only a human can decide. */
    record CannotTell(String reason) implements LookupOutcome {
    }
}
