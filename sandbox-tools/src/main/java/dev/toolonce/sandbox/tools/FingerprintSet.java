package dev.toolonce.sandbox.tools;

/**
 * The texts a tool has seen, kept as 64-bit fingerprints in open-addressed arrays: 8 to 16 bytes a text instead of
 * the 150 or so of a {@code ConcurrentHashMap<String, Boolean>} entry, so that a process that serves millions of
 * benchmark calls keeps its heap (the map filled the sandbox's 256 MiB after about 1.4 million noop calls and the
 * "zero-cost" tool spent its time in full collections, docs/performance.md, tenth round).
 *
 * <p>Two texts with the same fingerprint count as one: {@link #add} may then call a new text seen, never the other
 * way round, so a duplicate is never missed and a false one has a chance of about n² / 2⁶⁵ after n texts (3 in a
 * million after ten million). Thread-safe: one lock per stripe.
 */
final class FingerprintSet {
    private static final int STRIPES = 16;
    private static final long EMPTY = 0L;

    private final Stripe[] stripes = new Stripe[STRIPES];

    FingerprintSet() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
    }

    /** Adds the text; true when it (or a text with the same fingerprint) was not there before. */
    boolean add(String text) {
        long f = fingerprint(text);
        return stripes[(int) (f >>> 60)].add(f);
    }

    /** How many distinct fingerprints were added. */
    long size() {
        long n = 0;
        for (Stripe s : stripes) {
            n += s.size();
        }
        return n;
    }

    /** FNV-1a over the text's chars, then the splitmix64 finaliser so that every bit depends on every char; never 0. */
    static long fingerprint(String text) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            h ^= text.charAt(i);
            h *= 0x100000001b3L;
        }
        h ^= text.length();
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        h ^= h >>> 31;
        return h == EMPTY ? 1L : h;
    }

    private static final class Stripe {
        private long[] slots = new long[1024];
        private int size;

        synchronized boolean add(long f) {
            if (insert(slots, f)) {
                if (++size * 10L > slots.length * 6L) {
                    grow();
                }
                return true;
            }
            return false;
        }

        synchronized int size() {
            return size;
        }

        private void grow() {
            long[] bigger = new long[slots.length * 2];
            for (long f : slots) {
                if (f != EMPTY) {
                    insert(bigger, f);
                }
            }
            slots = bigger;
        }

        /** Linear probing from the fingerprint's low bits; false when it is there already. */
        private static boolean insert(long[] table, long f) {
            int mask = table.length - 1;
            for (int i = (int) f & mask; ; i = (i + 1) & mask) {
                if (table[i] == f) {
                    return false;
                }
                if (table[i] == EMPTY) {
                    table[i] = f;
                    return true;
                }
            }
        }
    }
}
