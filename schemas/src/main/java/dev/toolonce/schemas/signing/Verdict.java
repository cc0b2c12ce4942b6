package dev.toolonce.schemas.signing;

/**
 * What a {@link Keyring} says of a record's signature: made by a key it holds, or refused with a dead-letter code
 * of docs/contract.md §11 ({@code UNSIGNED_RECORD}, {@code UNKNOWN_SIGNING_KEY}, {@code BAD_SIGNATURE}).
 */
public sealed interface Verdict {
    /** The signature is {@code key}'s; what the key may sign is checked once the record is read. */
    record Signed(SigningKey key) implements Verdict {
        /** @return null when the key may sign this kind of record for this tenant, else the refusal */
        public Refused authorize(Power power, String tenant) {
            return key.allows(power, tenant) ? null : new Refused(SIGNER_NOT_ALLOWED, "key " + key.kid() + " of "
                    + key.name() + " may not sign " + power.label() + " records for tenant '" + tenant + "'");
        }
    }

    record Refused(String code, String message) implements Verdict {
    }

    String UNSIGNED_RECORD = "UNSIGNED_RECORD";
    String UNKNOWN_SIGNING_KEY = "UNKNOWN_SIGNING_KEY";
    String BAD_SIGNATURE = "BAD_SIGNATURE";
    String SIGNER_NOT_ALLOWED = "SIGNER_NOT_ALLOWED";
}
