package dev.toolonce.relay.slot;

import java.time.Instant;

/**
 * The last check of one source's replication slot, as the slot gauges and the
 * {@code replicationSlots} health indicator report it ({@code health.SourceProbe} reads it).
 *
 * @param source            the source's name
 * @param slot              its slot
 * @param present           whether the slot existed at the last successful check
 * @param active            whether a process streamed from it then (the relay's engine, normally)
 * @param walStatus         PostgreSQL's {@code wal_status} ({@code lost} = invalidated, its WAL is gone), or null
 * @param retainedWalBytes  WAL the server keeps for the slot, or null when unknown (missing or lost slot)
 * @param confirmedLagBytes WAL written since the position the relay last confirmed, or null when unknown
 * @param checkedAt         when the last successful check ran, or null before the first one
 * @param error             why the latest check failed (the values are then those of the one before), or null
 */
public record SlotReading(String source, String slot, boolean present, boolean active, String walStatus,
                          Long retainedWalBytes, Long confirmedLagBytes, Instant checkedAt, String error) {

    /** Before the first check. */
    public static SlotReading unknown(String source, String slot) {
        return new SlotReading(source, slot, false, false, null, null, null, null, "not checked yet");
    }

    /** The same values, marked as not confirmed by the latest check. */
    public SlotReading failed(String why) {
        return new SlotReading(source, slot, present, active, walStatus, retainedWalBytes, confirmedLagBytes,
                checkedAt, why);
    }

    /** Whether the latest check succeeded and found the slot present, streamed from and not invalidated. */
    public boolean healthy() {
        return error == null && present && active && !"lost".equals(walStatus);
    }

    /** What is wrong, for health details and logs; null when {@link #healthy()}. */
    public String problem() {
        if (error != null) {
            return "slot state unknown: " + error;
        }
        if (!present) {
            return "replication slot " + slot + " does not exist";
        }
        if ("lost".equals(walStatus)) {
            return "replication slot " + slot + " is invalidated (wal_status lost): its WAL was removed";
        }
        if (!active) {
            return "nothing streams from replication slot " + slot;
        }
        return null;
    }
}
