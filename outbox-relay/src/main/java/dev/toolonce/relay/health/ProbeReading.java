package dev.toolonce.relay.health;

import dev.toolonce.relay.slot.SlotReading;

/**
 * What the latest probe of one source found, taken on one connection in one round, so that the
 * database's reachability and its slot's state never come from two different moments.
 *
 * @param databaseReachable whether the source database answered the latest probe
 * @param slot              the latest reading of the source's replication slot; never null
 */
public record ProbeReading(boolean databaseReachable, SlotReading slot) {

    /** Before the first probe: nothing is known, so nothing is reachable or ready. */
    static ProbeReading unknown(String source, String slot) {
        return new ProbeReading(false, SlotReading.unknown(source, slot));
    }

    /**
     * Whether the latest probe succeeded and found the slot present and not invalidated. Whether a process streams
     * from it is another matter ({@link SlotReading#healthy()}): a relay standing by, or about to start its engine,
     * has a ready slot that it does not stream from yet.
     */
    public boolean slotReady() {
        return slot.error() == null && slot.present() && !"lost".equals(slot.walStatus());
    }
}
