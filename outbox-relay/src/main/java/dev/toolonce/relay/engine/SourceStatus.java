package dev.toolonce.relay.engine;

/**
 * What one source looks like from outside ({@code /ready}, {@code /relay/stats}, the
 * {@code sourceEngines} health indicator).
 *
 * @param name              the source's name
 * @param slot              its replication slot
 * @param slotReady         whether the latest probe found the slot present and not invalidated
 * @param running           whether its engine polls the slot and has delivered a batch (at
 *                          least a heartbeat) recently
 * @param databaseReachable whether the latest probe of the source database answered (the same probe)
 * @param state             the supervisor's state
 * @param lastError         the last failure, or null
 */
public record SourceStatus(String name, String slot, boolean slotReady, boolean running, boolean databaseReachable,
                           SourceState state, String lastError) {

    /** Publishing, or standing by to take over from the relay that publishes: either way, as it should be. */
    public boolean serving() {
        return running || state == SourceState.STANDBY;
    }
}
