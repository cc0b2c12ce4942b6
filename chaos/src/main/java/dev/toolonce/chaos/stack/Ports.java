package dev.toolonce.chaos.stack;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The experiment's own ports, nine in a row from {@code base}, so that it never meets the stack of
 * {@code ./toolonce up} (25432, 29092, 18080–18083) on the same machine.
 */
public record Ports(int pg, int kafka, int controller, int sandbox, int executorA, int relay, int consumer,
                    int executorB, int relayStandby) {

    /** Default base of {@code ./toolonce chaos}. */
    public static final int DEFAULT_BASE = 22400;

    public static Ports from(int base) {
        if (base < 1024 || base > 65_000) {
            throw new IllegalArgumentException("--port-base must be between 1024 and 65000, was " + base);
        }
        return new Ports(base, base + 1, base + 2, base + 3, base + 4, base + 5, base + 6, base + 7,
                base + 8);
    }

    /** The port variables of {@code deploy/local/stack.sh}. */
    public Map<String, String> stackEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PG_PORT", Integer.toString(pg));
        env.put("KAFKA_PORT", Integer.toString(kafka));
        env.put("KAFKA_CONTROLLER_PORT", Integer.toString(controller));
        env.put("SANDBOX_PORT", Integer.toString(sandbox));
        env.put("EXECUTOR_PORT", Integer.toString(executorA));
        env.put("RELAY_PORT", Integer.toString(relay));
        env.put("CONSUMER_PORT", Integer.toString(consumer));
        return env;
    }
}
