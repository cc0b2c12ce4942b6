package dev.toolonce.jdbc;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Hex SHA-256 of a record value, as the inbox stores it. */
public final class PayloadHash {
    private PayloadHash() {
    }

    /** @param bytes the record value; null counts as empty */
    public static String of(byte[] bytes) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(bytes == null ? new byte[0] : bytes);
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
