package dev.toolonce.sandbox.ledger;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * One row of the ledger.
 *
 * @param scope            first {@code X-ToolOnce-Scope} seen, or null
 * @param opId             first body {@code opId} seen, or null
 * @param externalObjectId the first object the effect created, or null while never applied
 * @param count            how many times the effect was really applied
 * @param requests         how many requests arrived for this identity (replays, 409s, 422s and
 *                         dropped responses included)
 * @param fences           every {@code X-ToolOnce-Fence} seen, in arrival order
 */
public record EffectRecord(String tool, String operation, String effectKey, String scope, String opId,
                           String externalObjectId, int count, int requests, List<Long> fences,
                           OffsetDateTime firstAt, OffsetDateTime lastAt) {
}
