package dev.toolonce.agent.results;

import dev.toolonce.messaging.IsolatingBatchProcessor.Decoded;
import dev.toolonce.messaging.SignedRecords;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.InputBounds;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.Verdict;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.databind.JsonNode;

/**
 * Turns a raw result record into a {@link Readable} result or a refusal naming what is wrong, before anything
 * touches the database: JSON within {@link InputBounds}, valid against the result schema (which keeps control
 * characters out of every stored field), {@code ce_id} equal to the body's {@code messageId}, and signed by a key
 * with the {@code result} power for the result's tenant (docs/security.md §6b) — a forged result is refused before it
 * is even read. Never throws for bad input. Thread-safe.
 */
public final class ResultDecoder {
    /** The refusals that say the record is not the executor's: nothing in it may be attributed to a step. */
    public static final Set<String> NOT_AUTHENTIC = Set.of(Verdict.UNSIGNED_RECORD, Verdict.UNKNOWN_SIGNING_KEY,
            Verdict.BAD_SIGNATURE, Verdict.SIGNER_NOT_ALLOWED);

    private final EventCodec codec = new EventCodec();
    private final ContractValidator validator = new ContractValidator();
    private final Keyring keyring;

    public ResultDecoder(Keyring keyring) {
        this.keyring = keyring;
    }

    /** A readable result and its message id. */
    public record Readable(ConsumerRecord<byte[], byte[]> record, String messageId, ToolResult result) {
    }

    /** @return the readable result, or a refusal with its DLQ code */
    public Decoded<Readable> decode(ConsumerRecord<byte[], byte[]> r) {
        if (r.value() == null || r.value().length == 0) {
            return new Decoded.Refused<>(r, "UNREADABLE_RESULT", "record value is empty");
        }
        Verdict verdict = SignedRecords.verify(keyring, r);
        if (verdict instanceof Verdict.Refused refused) {
            return new Decoded.Refused<>(r, refused.code(), refused.message());
        }
        JsonNode tree;
        try {
            tree = codec.parse(r.value());
        } catch (InputBounds.OutOfBoundsException e) {
            return new Decoded.Refused<>(r, "INPUT_OUT_OF_BOUNDS", e.getMessage());
        } catch (IllegalArgumentException e) {
            return new Decoded.Refused<>(r, "UNREADABLE_RESULT", e.getMessage());
        }
        List<String> violations = validator.validateResult(tree);
        if (!violations.isEmpty()) {
            return new Decoded.Refused<>(r, "SCHEMA_INVALID", "result violates the schema: " + String.join("; ", violations));
        }
        ToolResult result;
        try {
            result = codec.result(tree);
        } catch (IllegalArgumentException e) {
            return new Decoded.Refused<>(r, "SCHEMA_INVALID", e.getMessage());
        }
        String header = SignedRecords.header(r, Contract.CE_ID);
        if (header != null && !header.equals(result.messageId())) {
            return new Decoded.Refused<>(r, "MESSAGE_ID_CONFLICT",
                    "ce_id '" + InputBounds.identifier(header, InputBounds.MAX_ID_CHARS) + "' differs from messageId '"
                            + result.messageId() + "'");
        }
        Verdict.Refused notAllowed = ((Verdict.Signed) verdict).authorize(Power.RESULT, result.tenantId());
        if (notAllowed != null) {
            return new Decoded.Refused<>(r, notAllowed.code(), notAllowed.message());
        }
        return new Decoded.Item<>(r, new Readable(r, result.messageId(), result));
    }
}
