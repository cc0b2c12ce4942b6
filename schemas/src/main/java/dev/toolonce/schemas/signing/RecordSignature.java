package dev.toolonce.schemas.signing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code toolonce-signature} header (docs/contract.md §4a): {@code v1:<kid>:<mac>}, where mac is the unpadded
 * base64url HMAC-SHA256, under the key {@code kid}, of
 *
 * <pre>  "toolonce-record-v1" | len(ce_type) ce_type | len(ce_id) ce_id | len(value) value</pre>
 *
 * each length a 4-byte big-endian count of the UTF-8 bytes that follow, an absent header standing as the empty
 * string. It binds the record's kind, its message id and its exact value bytes (so the tenant, the scope and the
 * arguments) to the key; the record key and the other headers are not signed, and nothing the consumer decides on is
 * read from them.
 */
public final class RecordSignature {
    public static final String VERSION = "v1";
    private static final byte[] DOMAIN = "toolonce-record-v1".getBytes(StandardCharsets.US_ASCII);
    private static final String ALGORITHM = "HmacSHA256";
    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance(ALGORITHM);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no " + ALGORITHM, e);
        }
    });

    private RecordSignature() {
    }

    static SecretKeySpec keySpec(byte[] secret) {
        return new SecretKeySpec(secret, ALGORITHM);
    }

    /** @return the header value that {@code key} gives a record of this type, message id and value */
    public static String sign(SigningKey key, String type, String messageId, byte[] value) {
        return VERSION + ":" + key.kid() + ":" + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(mac(key, type, messageId, value));
    }

    /** @return whether {@code mac} (decoded) is what {@code key} gives this record; constant time */
    static boolean matches(SigningKey key, byte[] mac, String type, String messageId, byte[] value) {
        return MessageDigest.isEqual(mac, mac(key, type, messageId, value));
    }

    private static byte[] mac(SigningKey key, String type, String messageId, byte[] value) {
        Mac mac = MACS.get();
        try {
            mac.init(key.secret());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("key " + key.kid() + " is not an HMAC key", e);
        }
        mac.update(DOMAIN);
        field(mac, (type == null ? "" : type).getBytes(StandardCharsets.UTF_8));
        field(mac, (messageId == null ? "" : messageId).getBytes(StandardCharsets.UTF_8));
        field(mac, value == null ? new byte[0] : value);
        return mac.doFinal();
    }

    private static void field(Mac mac, byte[] bytes) {
        mac.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        mac.update(bytes);
    }
}
