package dev.toolonce.agent.call;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.hash.RequestHasher;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import tools.jackson.databind.JsonNode;

/**
 * The two ways a call made from a free-form agent loop gets its idempotency key (docs/agent-calls.md §1).
 *
 * <ul>
 *   <li>{@link #business}: a key the application already has for the effect (an order id, a ticket's request id).
 *       The safest: it stays the same whatever the model does on a re-run, even with other wording in the arguments,
 *       and the executor refuses the same key with other arguments.</li>
 *   <li>{@link #derived}: a key made from the conversation, the call's request hash (tenant, tool, operation and the
 *       RFC 8785 canonical arguments, exactly as the executor hashes them) and the occurrence of that identical call in
 *       the conversation. A turn the model re-runs after a crash asks for the same call again and gets the same key,
 *       so the executor answers with the stored result; a deliberate second identical call in the same conversation
 *       is the next occurrence and gets a new key. {@link ConversationKeys} counts the occurrences.</li>
 * </ul>
 *
 * <p>The model's own tool-call id is not used: it is chosen by the model provider for each response, so a turn re-run
 * after a crash comes back with new ids for the same calls, and a key made from it would make the second effect this
 * class exists to prevent.
 */
public final class CallKeys {
    /** Marks a derived key and its scheme's version: {@code c1.} then 43 characters of base64url. */
    public static final String DERIVED_PREFIX = "c1.";
    private static final byte[] DOMAIN = "toolonce-call-key-v1".getBytes(StandardCharsets.US_ASCII);
    private static final RequestHasher HASHER = new RequestHasher();

    private CallKeys() {
    }

    /**
     * The application's own key, checked as the contract requires.
     *
     * @throws dev.toolonce.core.call.InvalidArgumentsException unless it is 1–255 printable ASCII characters
     * @throws IllegalArgumentException when it starts with {@link #DERIVED_PREFIX}, which could collide with a
     *                                  derived key
     */
    public static String business(String tenantId, String tool, String operation, String key) {
        new CallScope(tenantId, tool, operation, key);
        if (key.startsWith(DERIVED_PREFIX)) {
            throw new IllegalArgumentException("a business key must not start with '" + DERIVED_PREFIX
                    + "', the prefix of derived keys");
        }
        return key;
    }

    /**
     * The key of the {@code occurrence}-th identical call (same tenant, tool, operation and canonical arguments) in a
     * conversation.
     *
     * @param conversationId the conversation's (or task's) id, stable across the application's restarts; any text
     * @param occurrence     1 for the first such call in the conversation
     * @throws dev.toolonce.core.call.InvalidArgumentsException when a name is malformed, or a number in the arguments
     *                                                          cannot be hashed faithfully (the executor would refuse
     *                                                          the intent for the same reason)
     * @throws IllegalArgumentException when the conversation id is empty or the occurrence below 1
     */
    public static String derived(String tenantId, String conversationId, String tool, String operation,
                                 JsonNode arguments, int occurrence) {
        return derived(conversationId, requestHash(tenantId, tool, operation, arguments), occurrence);
    }

    /** {@link #derived(String, String, String, String, JsonNode, int)} from an already computed request hash. */
    static String derived(String conversationId, String requestHash, int occurrence) {
        if (conversationId == null || conversationId.isEmpty()) {
            throw new IllegalArgumentException("conversationId must not be empty");
        }
        if (occurrence < 1) {
            throw new IllegalArgumentException("occurrence must be at least 1, was " + occurrence);
        }
        MessageDigest sha = sha256();
        sha.update(DOMAIN);
        field(sha, conversationId.getBytes(StandardCharsets.UTF_8));
        field(sha, requestHash.getBytes(StandardCharsets.US_ASCII));
        field(sha, Integer.toString(occurrence).getBytes(StandardCharsets.US_ASCII));
        return DERIVED_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(sha.digest());
    }

    /** The executor's request hash of the call ({@code sha256:<hex>}), which a derived key is made from. */
    static String requestHash(String tenantId, String tool, String operation, JsonNode arguments) {
        // the key part of the scope is not hashed; any valid one will do
        return HASHER.hash(new CallScope(tenantId, tool, operation, "-"), arguments).value();
    }

    /** Each field length-prefixed, so that no two different lists of fields hash the same bytes. */
    private static void field(MessageDigest sha, byte[] bytes) {
        sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
        sha.update(bytes);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
