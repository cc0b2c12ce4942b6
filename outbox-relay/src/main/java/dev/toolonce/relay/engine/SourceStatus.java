package dev.toolonce.relay.engine;

/**
 * What one source looks like from outside.
 *
 * @param name      the source's name
 * @param slot      its replication slot
 * @param slotReady whether the slot is known to exist
 * @param running   whether its engine polls the slot
 * @param state     the supervisor's state
 * @param lastError the last failure, or null
 */
public record SourceStatus(String name, String slot, boolean slotReady, boolean running, SourceState state,
                           String lastError) {

    /** Ready when the slot exists and the engine runs. */
    public boolean ready() {
        return slotReady && running;
    }
}
