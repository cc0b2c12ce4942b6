package dev.toolonce.relay.engine;

/** Where a source's supervisor is; reported by {@code /ready} and {@code /relay/stats}. */
public enum SourceState {
    /** Running the relay's migrations and creating the slot if missing. */
    PREPARING,
    /** The slot exists; the publication (or the table in it) does not yet. */
    WAITING_FOR_PUBLICATION,
    /**
     * Another process (a second relay of the same sources) streams from the slot; this one waits, connected, to take
     * over the moment the slot is let go.
     */
    STANDBY,
    /** Publishing the rows of the outbox table that the slot cannot deliver (new or reset slot). */
    SNAPSHOTTING,
    /** The engine is being built and connected. */
    STARTING,
    /** The engine polls the slot. */
    RUNNING,
    /** The engine or the preparation failed; waiting before the next attempt. */
    BACKING_OFF,
    /** The relay is shutting down or has shut down. */
    STOPPED
}
