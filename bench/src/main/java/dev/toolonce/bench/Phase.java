package dev.toolonce.bench;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The parts of a bench run, in the order they run; {@code --only} picks some. */
public enum Phase {
    /** The commit probe: the ceiling. */
    COMMIT,
    /** The relay alone: fixed rates and a backlog drain. */
    RELAY,
    /** End to end: a burst straight to Kafka, with CPU and memory of every component. */
    BURST,
    /** End to end: offered loads through the agent outbox, and the knee. */
    LOADS,
    /** The awaitable call (ToolCalls): calls one after the other, each timed to its answer. */
    AWAITABLE;

    /**
     * Parses a comma-separated list of phase names; {@code e2e} stands for {@code burst,loads}, {@code all}
     * for every phase.
     *
     * @throws IllegalArgumentException naming an unknown phase
     */
    public static Set<Phase> parse(String list) {
        Set<Phase> phases = EnumSet.noneOf(Phase.class);
        for (String name : list.split(",")) {
            switch (name.trim().toLowerCase(Locale.ROOT)) {
                case "all" -> phases.addAll(EnumSet.allOf(Phase.class));
                case "e2e" -> phases.addAll(EnumSet.of(BURST, LOADS));
                case "commit", "relay", "burst", "loads", "awaitable" -> phases.add(valueOf(name.trim().toUpperCase(Locale.ROOT)));
                default -> throw new IllegalArgumentException("unknown phase '" + name.trim()
                        + "' (phases: commit, relay, burst, loads, awaitable, e2e = burst+loads, all)");
            }
        }
        return phases;
    }
}
