package dev.toolonce.executor.results;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.jdbc.MessageIds;
import dev.toolonce.jdbc.OutboxEvent;
import dev.toolonce.jdbc.OutboxStore;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.InputBounds;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * Writes result events into the executor's outbox, in the caller's transaction. Every answer is
 * addressed to one intent message ({@code intentMessageId}) and signed by the executor's result key for its tenant
 * (docs/security.md §6b).
 */
public final class ResultEvents {
    private static final System.Logger LOG = System.getLogger(ResultEvents.class.getName());
    private final OutboxStore outbox;
    private final Keyring keyring;
    private final EventCodec codec;
    private final String topic;
    private final String source;
    private final Clock clock;

    public ResultEvents(OutboxStore outbox, Keyring keyring, EventCodec codec, String topic, String source,
                        Clock clock) {
        this.outbox = outbox;
        this.keyring = keyring;
        this.codec = codec;
        this.topic = topic;
        this.source = source;
        this.clock = clock;
    }

    /**
     * Where an answer goes: the intent it answers, that intent's task and step, and the trace it arrived with
     * ({@code traceparent}, nullable), which the answer carries back (docs/contract.md §14).
     */
    public record Addressee(String intentMessageId, String taskId, String stepId, String traceparent) {
    }

    /** One answer to publish: a call's stored outcome, to one addressee; {@code replayed} for duplicates. */
    public record Answer(ToolCall call, Addressee to, boolean replayed) {
    }

    /** Publishes the call's stored outcome to {@code to}; {@code replayed} for duplicates. */
    public void outcome(ToolCall call, Addressee to, boolean replayed) {
        outcomes(List.of(new Answer(call, to, replayed)));
    }

    /** Publishes many answers with one batched insert (completions of many calls share one transaction). */
    public void outcomes(List<Answer> answers) {
        outbox.append(answers.stream().map(this::event).toList());
    }

    private OutboxEvent event(Answer a) {
        ToolCall call = a.call();
        ToolResult.ResultError error = call.errorCode() == null ? null
                : new ToolResult.ResultError(call.errorCode(), call.errorMessage());
        CallScope scope = call.scope();
        return event(scope.tenantId(), scope.tool(), scope.operation(), scope.idempotencyKey(), scope.recordKey(),
                call.requestHash().value(), a.to(), call.callVersion(), statusOf(call), call.externalObjectId(),
                parse(call.resultJson()), error, call.attempts(), a.replayed());
    }

    /**
     * Refuses an intent before any contact with the tool. The original call, if any, is untouched; the
     * answer goes to the refused intent only, with call version 0 so that it never supersedes a real outcome.
     */
    public void rejected(CallScope scope, String requestHash, Addressee to, String code, String message) {
        write(scope, requestHash, to, 0, ResultStatus.REJECTED, null, null,
                new ToolResult.ResultError(code, message), 0, false);
    }

    /**
     * Refuses an intent whose scope itself is invalid (no {@link CallScope} can be built): the answer echoes
     * the fields as sent so the agent can match it.
     */
    public void rejected(ToolIntent intent, Addressee to, String code, String message) {
        write(intent.tenantId(), intent.tool(), intent.operation(), intent.idempotencyKey(), intent.recordKey(), null,
                to, 0, ResultStatus.REJECTED, null, null, new ToolResult.ResultError(code, message), 0, false);
    }

    private void write(CallScope scope, String requestHash, Addressee to, long version, ResultStatus status,
                       String externalId, JsonNode result, ToolResult.ResultError error, int attempts,
                       boolean replayed) {
        write(scope.tenantId(), scope.tool(), scope.operation(), scope.idempotencyKey(), scope.recordKey(), requestHash,
                to, version, status, externalId, result, error, attempts, replayed);
    }

    private void write(String tenant, String tool, String operation, String key, String recordKey, String requestHash,
                       Addressee to, long version, ResultStatus status, String externalId, JsonNode result,
                       ToolResult.ResultError error, int attempts, boolean replayed) {
        outbox.append(event(tenant, tool, operation, key, recordKey, requestHash, to, version, status, externalId,
                result, error, attempts, replayed));
    }

    private OutboxEvent event(String tenant, String tool, String operation, String key, String recordKey,
                              String requestHash, Addressee to, long version, ResultStatus status, String externalId,
                              JsonNode result, ToolResult.ResultError error, int attempts, boolean replayed) {
        UUID id = MessageIds.next();
        // Whatever a tool answered, the event stays inside the result schema's text limits.
        ToolResult.ResultError safeError = error == null ? null : new ToolResult.ResultError(
                InputBounds.identifier(error.code(), InputBounds.MAX_ID_CHARS),
                InputBounds.text(error.message(), InputBounds.MAX_MESSAGE_CHARS));
        ToolResult r = new ToolResult(id.toString(), to.intentMessageId(), tenant, tool, operation, key, requestHash,
                to.taskId(), to.stepId(), version, status, InputBounds.identifier(externalId, InputBounds.MAX_LONG_ID_CHARS), result, safeError,
                attempts, replayed, clock.instant().toString());
        return signed(new OutboxEvent(id, topic, recordKey, Contract.RESULT_TYPE, source, recordKey, codec.write(r),
                to.traceparent()), tenant);
    }

    /**
     * A result for a tenant no result key covers is written unsigned, and its consumer dead-letters it
     * ({@code UNSIGNED_RECORD}), rather than failing the transaction of the call's outcome over and over: the outcome
     * stays recorded, and the error says which key to add.
     */
    private OutboxEvent signed(OutboxEvent event, String tenant) {
        if (keyring.signer(Power.RESULT, tenant).isEmpty()) {
            LOG.log(System.Logger.Level.ERROR, "no key in " + keyring.path() + " may sign results for tenant '"
                    + tenant + "': result " + event.id() + " leaves unsigned and its consumer will dead-letter it");
            return event;
        }
        return event.signedBy(keyring, Power.RESULT, tenant);
    }

    private static ResultStatus statusOf(ToolCall call) {
        return switch (call.state()) {
            case COMMITTED -> ResultStatus.COMMITTED;
            case FAILED_FINAL -> ResultStatus.FAILED_FINAL;
            case COMPENSATED -> ResultStatus.COMPENSATED;
            case NEEDS_REVIEW -> ResultStatus.NEEDS_REVIEW;
            default -> throw new IllegalStateException("no result to publish for a call in " + call.state());
        };
    }

    private JsonNode parse(String json) {
        return json == null ? null : codec.parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
