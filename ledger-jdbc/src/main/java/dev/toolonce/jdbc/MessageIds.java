package dev.toolonce.jdbc;

import java.util.UUID;

/**
 * Ids for the messages ToolOnce writes itself (its outbox rows: results, task events, the intents an agent publishes):
 * UUIDs of version 7 (RFC 9562 §5.7), whose first 48 bits are the Unix time in milliseconds and whose other 74 are
 * random. Each such id becomes a key of several B-trees on its way (the outbox's primary key, the receiving inbox's,
 * the agent's step result log). Random ids put every insert on a random leaf page of an index larger than the buffer
 * cache; ids that grow with time put them on the few pages at one end of the index, and PostgreSQL's CPU per call in
 * a burst fell by about a third (docs/performance.md, eleventh round).
 *
 * <p>The contract asks only for a string of 1–255 characters (docs/contract.md §5), so producers that send random
 * UUIDs, or any other id, are served as before; ids stay unique because their random part comes, as
 * {@link UUID#randomUUID()}'s does, from a cryptographically strong generator — so a message id still tells
 * nobody the next one (an inbox keeps the first message of an id; a guessable id would let a sender take it first).
 */
public final class MessageIds {
    private static final long VERSION_7 = 0x7000L;
    private static final long RAND_A = 0x0FFFL;

    private MessageIds() {
    }

    /** A new version-7 UUID for the current time. */
    public static UUID next() {
        return at(System.currentTimeMillis(), UUID.randomUUID());
    }

    /** The version-7 UUID for {@code epochMillis} whose random bits are taken from {@code random} (a version-4 UUID). */
    static UUID at(long epochMillis, UUID random) {
        long msb = (epochMillis << 16) | VERSION_7 | (random.getMostSignificantBits() & RAND_A);
        return new UUID(msb, random.getLeastSignificantBits()); // the IETF variant bits are already random's
    }
}
