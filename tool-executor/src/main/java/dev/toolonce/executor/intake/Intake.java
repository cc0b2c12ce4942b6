package dev.toolonce.executor.intake;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallKind;
import dev.toolonce.core.call.InvalidArgumentsException;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.decide.Decider;
import dev.toolonce.core.decide.Decision;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.core.hash.RequestHasher;
import dev.toolonce.executor.execution.ToolGateway;
import dev.toolonce.executor.ledger.ToolCallCompensations;
import dev.toolonce.executor.results.ResultEvents;
import dev.toolonce.executor.results.ResultEvents.Addressee;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.executor.ledger.PendingReplyStore;
import dev.toolonce.executor.ledger.PendingReplyStore.PendingReply;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.schemas.ToolIntent;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Intake of one accepted intent, inside the batch transaction (docs/protocol.md §5): the inbox row first,
 * then the decision for its scope — plan a new call, refuse, replay a finished one, or record the
 * duplicate to be answered when its call completes.
 */
public final class Intake {
    /** What intake did with an intent; counted by the listener. */
    public enum Disposition { PLANNED, DUPLICATE_MESSAGE, REJECTED, REPLAYED, AWAITING }

    /** What intake did with one intent; {@code code} is the error code of a rejection, else null. */
    public record Taken(Disposition disposition, String code) {
        static Taken as(Disposition disposition) {
            return new Taken(disposition, null);
        }

        static Taken rejected(String code) {
            return new Taken(Disposition.REJECTED, code);
        }
    }

    private final String consumerGroup;
    private final InboxStore inbox;
    private final ToolCallStore calls;
    private final ToolCallCompensations holds;
    private final PendingReplyStore pending;
    private final ResultEvents results;
    private final ToolGateway tools;
    private final Decider decider;
    private final RequestHasher hasher = new RequestHasher();
    private final Clock clock;

    /** A planned compensation is held until its original can be compensated (docs/protocol.md §17). */
    public Intake(String consumerGroup, InboxStore inbox, ToolCallStore calls, ToolCallCompensations holds,
                  PendingReplyStore pending,
                  ResultEvents results, ToolGateway tools, Decider decider, Clock clock) {
        this.consumerGroup = consumerGroup;
        this.inbox = inbox;
        this.calls = calls;
        this.holds = holds;
        this.pending = pending;
        this.results = results;
        this.tools = tools;
        this.decider = decider;
        this.clock = clock;
    }

    /** Must run inside a transaction; idempotent per message id thanks to the inbox. */
    public Taken record(ParsedIntent.Accepted a) {
        ToolIntent intent = a.intent();
        Addressee to = new Addressee(a.messageId(), intent.taskId(), intent.stepId(), a.traceparent());
        InboxStore.Seen seen = inbox.record(consumerGroup, a.messageId(), a.payloadHash(), a.record().topic(),
                a.record().partition(), a.record().offset());
        if (seen == InboxStore.Seen.DUPLICATE) {
            return Taken.as(Disposition.DUPLICATE_MESSAGE);
        }
        if (a.scopeProblem() != null) {
            results.rejected(intent, to, "INVALID_ARGUMENTS", "invalid scope: " + a.scopeProblem());
            return Taken.rejected("INVALID_ARGUMENTS");
        }
        CallScope scope = new CallScope(intent.tenantId(), intent.tool(), intent.operation(), intent.idempotencyKey());
        if (seen == InboxStore.Seen.REUSED) {
            return reject(scope, null, to, "MESSAGE_ID_REUSED",
                    "message id " + a.messageId() + " was already used for a different payload");
        }
        if (!tools.supports(scope.tool(), scope.operation())) {
            return reject(scope, null, to, "UNKNOWN_TOOL",
                    "no tool '" + scope.tool() + "' with operation '" + scope.operation() + "' is configured");
        }
        RequestHash hash;
        Instant requestedAt;
        try {
            hash = hasher.hash(scope, intent.arguments());
            requestedAt = requestedAt(intent);
        } catch (InvalidArgumentsException e) {
            return reject(scope, null, to, "INVALID_ARGUMENTS", e.getMessage());
        }
        return decideAndAct(a, scope, hash, requestedAt, to);
    }

    /**
     * Insert first: most intents open a new scope, and the insert alone settles them. Only when the scope is
     * taken (or purged) is its row read, under a share lock, and the decider asked what the taken scope means
     * ({@link Decider#onTaken}); the acceptance window is checked once, before the insert.
     */
    private Taken decideAndAct(ParsedIntent.Accepted a, CallScope scope, RequestHash hash,
                                     Instant requestedAt, Addressee to) {
        Optional<Decision.Reject> refused = decider.admit(requestedAt, clock.instant());
        if (refused.isPresent()) {
            return act(refused.get(), scope, hash, to);
        }
        ToolIntent i = a.intent();
        ToolCallStore.NewCall call = new ToolCallStore.NewCall(scope, ProviderKey.of(scope), hash,
                i.arguments().toString(), i.taskId(), i.stepId(), a.messageId(), to.traceparent());
        for (int tries = 0; tries < 2; tries++) {
            Optional<ToolCall> planned = calls.insertPlanned(call);
            if (planned.isPresent()) {
                if (planned.get().kind() == CallKind.COMPENSATION) {
                    holds.holdCompensation(planned.get().id()); // released once the original is COMPENSATING
                }
                return Taken.as(Disposition.PLANNED);
            }
            Optional<ToolCall> existing = calls.findForShare(scope);
            if (existing.isPresent()) {
                return act(decider.onTaken(existing.get(), hash), scope, hash, to);
            }
            Optional<String> purged = calls.tombstone(scope);
            if (purged.isPresent()) {
                return reject(scope, hash.value(), to, Decider.KEY_EXPIRED, "scope " + scope
                        + " outlived the retention window; its call ended " + purged.get() + " and was purged");
            }
            // The conflicting insert of another transaction rolled back: try to plan again.
        }
        throw new IllegalStateException("scope " + scope + " could be neither planned nor read");
    }

    private Taken act(Decision decision, CallScope scope, RequestHash hash, Addressee to) {
        // Java 17 has no pattern switch; the decision kinds are few and sealed.
        if (decision instanceof Decision.Reject r) {
            return reject(scope, hash.value(), to, r.code(), r.message());
        } else if (decision instanceof Decision.Replay r) {
            return replay(r.call(), to);
        } else if (decision instanceof Decision.HoldForReview h) {
            return replay(h.call(), to);
        } else if (decision instanceof Decision.AwaitCompletion w) {
            return await(w.call(), to);
        } else if (decision instanceof Decision.RetryWhenDue w) {
            return await(w.call(), to);
        }
        throw new IllegalStateException("no intake action for " + decision + " on scope " + scope);
    }

    private Taken reject(CallScope scope, String hash, Addressee to, String code, String message) {
        results.rejected(scope, hash, to, code, message);
        return Taken.rejected(code);
    }

    private Taken replay(ToolCall call, Addressee to) {
        results.outcome(call, to, true);
        return Taken.as(Disposition.REPLAYED);
    }

    private Taken await(ToolCall call, Addressee to) {
        pending.add(call.id(), new PendingReply(to.intentMessageId(), to.taskId(), to.stepId(), to.traceparent()));
        return Taken.as(Disposition.AWAITING);
    }

    private static Instant requestedAt(ToolIntent intent) {
        if (intent.requestedAt() == null) {
            return null;
        }
        try {
            return Instant.parse(intent.requestedAt());
        } catch (DateTimeParseException e) {
            throw new InvalidArgumentsException("requestedAt", "must be an ISO-8601 instant such as 2026-11-30T08:00:00Z");
        }
    }
}
