package dev.toolonce.core.adapter;

import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;

/**
 * The port to one external tool (docs/adapters.md; docs/protocol.md §8–§10). An adapter performs exactly one request per
 * method call and classifies what it saw; it never retries, waits or decides a retry on its own — the
 * executor does that from the ledger. No method throws for a tool failure: every failure is an outcome.
 * Implementations must be thread-safe: many workers call one adapter.
 */
public interface ToolAdapter {

    /** What the tool is and can do; never null, the same value on every call. */
    ToolDescriptor descriptor();

    /**
     * Sends the call's effect once, carrying its provider key (as idempotency key or reference).
     *
     * @param call a call claimed by the caller; its operation is one of {@link ToolDescriptor#operations()}
     * @return never null
     */
    ToolOutcome execute(ToolCall call);

    /**
     * Asks whether an earlier attempt of this call took effect, by provider key or reference. Never
     * creates anything. A tool that cannot be asked answers {@link LookupOutcome.CannotTell}.
     *
     * @return never null
     */
    LookupOutcome lookup(ToolCall call);

    /**
     * Undoes the committed effect of {@code original} once, under the derived compensation key
     * ({@link dev.toolonce.core.hash.ProviderKey#compensationOf}). A tool without
     * {@link Capability#COMPENSATION} answers {@link ToolOutcome.Rejected} with code {@code NOT_COMPENSABLE}.
     *
     * @param original the committed call, with its external object id
     * @return never null
     */
    ToolOutcome compensate(ToolCall original);
}
