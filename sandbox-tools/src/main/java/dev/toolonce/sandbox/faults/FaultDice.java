package dev.toolonce.sandbox.faults;

import java.util.Random;

/**
 * The random part of fault injection, free of I/O so a seeded instance can be tested. A seed
 * makes the sequence of decisions repeatable; which request gets which decision still depends
 * on the order requests arrive in.
 */
public final class FaultDice {

    /** What to do before applying a request. */
    public enum Refusal { NONE, TOO_MANY_REQUESTS, UNAVAILABLE }

    /** What to do with the response of an applied request. */
    public enum AfterApply { RESPOND, STALL, DROP, DROP_FAIL_NEXT }

    private final Random random;

    /** @param seed seed of the random source, or null to seed from entropy */
    public FaultDice(Long seed) {
        this.random = seed == null ? new Random() : new Random(seed);
    }

    /** 429 with probability {@code rate429}, else 503 with probability {@code rate5xx}. */
    public Refusal beforeApply(FaultConfig config) {
        if (happens(config.rate429())) {
            return Refusal.TOO_MANY_REQUESTS;
        }
        if (happens(config.rate5xx())) {
            return Refusal.UNAVAILABLE;
        }
        return Refusal.NONE;
    }

    /**
     * @param failNextTaken whether this request consumed one unit of {@code failNext}
     * @return drop for {@code failNext}, else drop with probability {@code dropResponseAfterApply},
     *         else stall when {@code stallMs > 0}, else respond
     */
    public AfterApply afterApply(FaultConfig config, boolean failNextTaken) {
        if (failNextTaken) {
            return AfterApply.DROP_FAIL_NEXT;
        }
        if (happens(config.dropResponseAfterApply())) {
            return AfterApply.DROP;
        }
        return config.stallMs() > 0 ? AfterApply.STALL : AfterApply.RESPOND;
    }

    /** Draws only for a positive rate, so a tool without faults does not shift the sequence. */
    private boolean happens(double rate) {
        return rate > 0 && random.nextDouble() < rate;
    }
}
