package dev.toolonce.executor.intake;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.shard.TenantShards;
import dev.toolonce.core.call.CallKind;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.InvalidArgumentsException;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.decide.Decider;
import dev.toolonce.core.decide.Decision;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.core.hash.RequestHasher;
import dev.toolonce.executor.catalogue.ToolCatalogue;
import dev.toolonce.schemas.ArgumentsSchema;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Intake of one accepted intent, inside the batch transaction (docs/protocol.md §5): the inbox row first,
 * then the decision for its scope — plan a new call, refuse, replay a finished one, or record the
 * duplicate to be answered when its call completes.
 */
public final class Intake {
    /** An intent of a tenant that another shard's ledger serves (docs/scaling.md §3, contract.md §9). */
    public static final String TENANT_NOT_SERVED = "TENANT_NOT_SERVED";

    /** What intake did with an intent; counted by the listener. */
    public enum Disposition { PLANNED, DUPLICATE_MESSAGE, REJECTED, REPLAYED, AWAITING }

    /**
     * What intake did with one intent; {@code code} is the error code of a rejection, else null; {@code plannedId} the
     * id of the call it planned, else null; {@code started} that call when the plan also claimed it (STARTED, its
     * fence and lease set: {@link ToolCallStore.Starting}), else null.
     */
    public record Taken(Disposition disposition, String code, Long plannedId, ToolCall started) implements Checked {
        static Taken as(Disposition disposition) {
            return new Taken(disposition, null, null, null);
        }

        static Taken rejected(String code) {
            return new Taken(Disposition.REJECTED, code, null, null);
        }

        static Taken planned(ToolCall call) {
            return new Taken(Disposition.PLANNED, null, call.id(), call.state() == CallState.STARTED ? call : null);
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
    private final ToolCatalogue catalogue;
    private final RequestHasher hasher = new RequestHasher();
    private final Clock clock;
    private final TenantShards shards;
    private final String shard;

    /**
     * A planned compensation is held until its original can be compensated (docs/protocol.md §17).
     *
     * @param shards the tenants' shards and {@code shard} this ledger's (docs/scaling.md §3): an intent of a tenant
     *               another shard serves is refused {@value #TENANT_NOT_SERVED} and never planned here
     */
    public Intake(String consumerGroup, InboxStore inbox, ToolCallStore calls, ToolCallCompensations holds,
                  PendingReplyStore pending, ResultEvents results, ToolGateway tools, ToolCatalogue catalogue,
                  Decider decider, Clock clock, TenantShards shards, String shard) {
        this.consumerGroup = consumerGroup;
        this.inbox = inbox;
        this.calls = calls;
        this.holds = holds;
        this.pending = pending;
        this.results = results;
        this.tools = tools;
        this.decider = decider;
        this.catalogue = catalogue;
        this.clock = clock;
        this.shards = shards;
        this.shard = shard;
    }

    /**
     * Takes a poll batch in the caller's transaction (it must run inside one; idempotent per message id thanks to the
     * inbox) with a fixed number of statements for its common case (docs/protocol.md §19): one inbox insert for every intent, then one plan insert for every intent that opens a new
     * scope, and one re-check of their tombstones. Each intent ends as it would have had the batch been taken one
     * intent after the other, in order: a redelivery or a second intent of a scope within the batch meets the row the
     * first one wrote. Only the rare cases (a message or scope seen before, a refusal) cost statements of their own.
     *
     * @param starting how many of the calls it plans the plan insert may also claim, and for whom
     * @return per intent, in order, what intake did with it
     */
    public List<Taken> recordAll(List<ParsedIntent.Accepted> batch, ToolCallStore.Starting starting) {
        List<InboxStore.Seen> seen = inbox.recordAll(consumerGroup, batch.stream().map(Intake::message).toList());
        Taken[] taken = new Taken[batch.size()];
        List<Integer> planning = new ArrayList<>();
        List<ToPlan> plans = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Checked checked = check(batch.get(i), seen.get(i));
            if (checked instanceof Taken t) {
                taken[i] = t;
            } else if (checked instanceof ToPlan p) {
                planning.add(i);
                plans.add(p);
            }
        }
        List<Optional<ToolCall>> planned = calls.insertAllPlanned(plans.stream().map(ToPlan::call).toList(), starting);
        for (int j = 0; j < plans.size(); j++) {
            ToPlan p = plans.get(j);
            taken[planning.get(j)] = planned.get(j).isPresent() ? planned(planned.get(j).get()) : scopeTaken(p);
        }
        return List.of(taken);
    }

    /** What inbox and intake make of an intent before the ledger is touched. */
    private Checked check(ParsedIntent.Accepted a, InboxStore.Seen seen) {
        ToolIntent intent = a.intent();
        Addressee to = new Addressee(a.messageId(), intent.taskId(), intent.stepId(), a.traceparent());
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
        if (!shards.serves(shard, scope.tenantId())) { // before anything of the call is looked at
            return reject(scope, null, to, TENANT_NOT_SERVED, "tenant '" + scope.tenantId() + "' is served by "
                    + shards.shardOf(scope.tenantId()).map(s -> "shard " + s).orElse("no shard")
                    + ", not by this ledger (shard " + shard + "): route its intents to its shard's intents topic");
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
        // The operation's input-schema, before the ledger: arguments that break it never become a call.
        List<String> violations = catalogue.violations(scope.tool(), scope.operation(), intent.arguments());
        if (!violations.isEmpty()) {
            return reject(scope, hash.value(), to, "INVALID_ARGUMENTS", ArgumentsSchema.describe(scope.tool(),
                    scope.operation(), violations));
        }
        // The acceptance window is checked once, before the insert.
        Optional<Decision.Reject> refused = decider.admit(requestedAt, clock.instant());
        if (refused.isPresent()) {
            return act(refused.get(), scope, hash, to);
        }
        return new ToPlan(new ToolCallStore.NewCall(scope, ProviderKey.of(scope), hash, intent.arguments().toString(),
                intent.taskId(), intent.stepId(), a.messageId(), to.traceparent()), to);
    }

    /** What the checks before the ledger made of an intent: taken already, or a call to plan. */
    private sealed interface Checked permits Taken, ToPlan {
    }

    /** An intent that passed every check, with the call it would plan and where its answer goes. */
    private record ToPlan(ToolCallStore.NewCall call, Addressee to) implements Checked {
    }

    private Taken planned(ToolCall call) {
        if (call.kind() == CallKind.COMPENSATION) {
            holds.holdCompensation(call.id()); // released once the original is COMPENSATING
        }
        return Taken.planned(call);
    }

    /**
     * The plan insert found the scope taken (or purged): insert first, because most intents open a new scope and the
     * insert alone settles them. Only now is the scope's row read, under a share lock, and the decider asked what the
     * taken scope means ({@link Decider#onTaken}).
     */
    private Taken scopeTaken(ToPlan p) {
        CallScope scope = p.call().scope();
        RequestHash hash = p.call().requestHash();
        for (int tries = 0; tries < 2; tries++) {
            Optional<ToolCall> existing = calls.findForShare(scope);
            if (existing.isPresent()) {
                return act(decider.onTaken(existing.get(), hash), scope, hash, p.to());
            }
            Optional<String> purged = calls.tombstone(scope);
            if (purged.isPresent()) {
                return reject(scope, hash.value(), p.to(), Decider.KEY_EXPIRED, "scope " + scope
                        + " outlived the retention window; its call ended " + purged.get() + " and was purged");
            }
            // The conflicting insert of another transaction rolled back: try to plan again.
            Optional<ToolCall> planned = calls.insertPlanned(p.call());
            if (planned.isPresent()) {
                return planned(planned.get());
            }
        }
        throw new IllegalStateException("scope " + scope + " could be neither planned nor read");
    }

    private static InboxStore.Message message(ParsedIntent.Accepted a) {
        return new InboxStore.Message(a.messageId(), a.payloadHash(), a.record().topic(), a.record().partition(),
                a.record().offset());
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
