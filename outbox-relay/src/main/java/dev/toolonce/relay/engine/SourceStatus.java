package dev.toolonce.relay.engine;

/**
 * What one source looks like from outside ({@code /ready}, {@code /relay/stats}, the
 * {@code sourceEngines} health indicator).
 *
 * @param name              the source's name
 * @param slot              its replication slot
 * @param slotReady         whether the slot is known to exist
 * @param running           whether its engine polls the slot and has delivered a batch (at
 *                          least a heartbeat) recently
 * @param databaseReachable whether the last probe of the source database answered
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
