package dev.toolonce.sandbox.ledger;

import java.util.Objects;

/**
 * What makes two requests "the same effect" in the ledger: one row per identity. The factories
 * are the sandbox's rules for choosing the effect key of each kind of tool.
 *
 * @param tool      tool name, e.g. {@code payments}
 * @param operation operation of the tool, e.g. {@code charge}
 * @param effectKey the key within tool and operation; never blank
 */
public record EffectIdentity(String tool, String operation, String effectKey) {

    public EffectIdentity {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(operation, "operation");
        if (effectKey == null || effectKey.isBlank()) {
            throw new IllegalArgumentException("effectKey must not be blank");
        }
    }

    /**
     * A tool with native idempotency: the {@code Idempotency-Key}, or, for a request without
     * one, the object it creates (every such request is its own effect).
     *
     * @param idempotencyKey the header value, or null
     * @param newObjectId    the id the request's object will get; used only without a key
     */
    public static EffectIdentity byProviderKey(String tool, String operation, String idempotencyKey,
                                               String newObjectId) {
        return new EffectIdentity(tool, operation, firstPresent(idempotencyKey, newObjectId));
    }

    /** A tool with a unique reference: the reference itself. */
    public static EffectIdentity byReference(String tool, String operation, String reference) {
        return new EffectIdentity(tool, operation, reference);
    }

    /**
     * A tool without any deduplication: the caller's scope header, else the body's {@code opId},
     * else the new object's id — so repeated deliveries of one call land on one row whose count
     * shows every duplicate.
     *
     * @param scope       the {@code X-ToolOnce-Scope} header, or null
     * @param opId        the body's {@code opId}, or null
     * @param newObjectId the id of the object this request creates
     */
    public static EffectIdentity byCallerIdentity(String tool, String operation, String scope, String opId,
                                                  String newObjectId) {
        return new EffectIdentity(tool, operation, firstPresent(scope, opId, newObjectId));
    }

    private static String firstPresent(String... candidates) {
        for (String candidate : candidates) {
            if (candidate != null && !candidate.isBlank()) {
                return candidate;
            }
        }
        throw new IllegalArgumentException("no effect key candidate is present");
    }
}
