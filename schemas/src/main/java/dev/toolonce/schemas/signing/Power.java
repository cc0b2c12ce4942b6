package dev.toolonce.schemas.signing;

import java.util.Locale;

/**
 * What a signing key may sign (docs/security.md §6b). Each record kind needs its own power, so a key that may request
 * calls cannot refund them, and no agent's key can answer for the executor.
 */
public enum Power {
    /** a tool intent ({@code dev.toolonce.tool-intent.v1}), written by an agent */
    INTENT,
    /** a compensation request ({@code dev.toolonce.tool-compensation.v1}), written by an agent's saga */
    COMPENSATE,
    /** a tool result ({@code dev.toolonce.tool-result.v1}), written by the executor */
    RESULT,
    /** a task event ({@code dev.toolonce.agent-task.v1}), written by an agent's task engine */
    TASK;

    /** @throws IllegalArgumentException for anything but the lower-case names */
    public static Power parse(String name) {
        for (Power p : values()) {
            if (p.label().equals(name.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown power '" + name + "' (intent, compensate, result, task)");
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
