package dev.toolonce.relay.slot;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.config.SourceConnections;
import dev.toolonce.relay.offsets.OffsetsRepository;
import dev.toolonce.relay.slot.SlotRepository.SlotInfo;
import dev.toolonce.relay.snapshot.SnapshotMarkers;

/**
 * Everything that happens in a source database before its engine may start: the relay's own
 * migrations, the replication slot (created the moment the relay first sees the source, so that
 * outbox rows committed while no engine runs are retained), the wait for the publication, and
 * the repair of a slot that is older than its publication, and the decision whether the outbox
 * table must be snapshotted before streaming.
 *
 * <p>Slot, offsets and snapshot marker are reset together: a missing slot with stored offsets
 * means the stored position is meaningless, so the offsets are deleted (and that is logged
 * loudly) before the slot is created; a created or advanced slot clears the marker, so rows
 * committed before its new position are snapshotted instead of skipped.
 */
public final class SourcePreparation {

    private static final Logger log = LoggerFactory.getLogger(SourcePreparation.class);
    private static final String DUPLICATE_OBJECT = "42710";
    private static final String UNDEFINED_OBJECT = "42704";
    private static final String OBJECT_IN_USE = "55006";
    private static final Duration PUBLICATION_POLL = Duration.ofSeconds(1);
    /** How often a standby checks whether the slot was let go; it bounds the takeover delay after a crash. */
    static final Duration STANDBY_POLL = Duration.ofMillis(200);

    private final Source source;

    public SourcePreparation(Source source) {
        this.source = source;
    }

    /**
     * Runs the relay's migrations, then creates the slot if it is missing.
     *
     * @throws SQLException when the database is unreachable or refuses
     * @throws IllegalStateException when a slot of that name exists but cannot serve this source
     */
    public void migrateAndEnsureSlot() throws SQLException {
        RelayMigrations.migrate(source);
        try (Connection c = connect()) {
            Optional<SlotInfo> slot = SlotRepository.findSlot(c, source.slot());
            if (slot.isPresent()) {
                checkUsable(slot.get(), SlotRepository.currentDatabase(c));
                return;
            }
            // Marker first: a crash before the slot exists again must still lead to a snapshot.
            SnapshotMarkers.clear(c, source.slot());
            if (OffsetsRepository.delete(c, source.slot())) {
                log.warn("""

                        ***** Source '{}': replication slot '{}' is MISSING but offsets were stored for it (dropped, or lost in a failover). *****
                        ***** The stored offsets were DELETED and the slot is created anew at the current WAL position; *****
                        ***** {} is snapshotted before streaming, so rows committed meanwhile still leave (duplicates possible). *****""",
                        source.name(), source.slot(), source.table());
            }
            createSlot(c);
        }
    }

    /**
     * Whether the outbox table must be snapshotted before the engine streams: no offsets are
     * stored for the slot (it is new, or was reset) and no snapshot completed since the slot was
     * created or advanced. An engine that has stored a position has streamed from a slot whose
     * earlier rows were already covered.
     *
     * @throws SQLException when the database is unreachable
     */
    public boolean snapshotNeeded() throws SQLException {
        try (Connection c = connect()) {
            return OffsetsRepository.load(c, source.slot()).isEmpty() && !SnapshotMarkers.isDone(c, source.slot());
        }
    }

    /**
     * Records that the snapshot completed; called only after every row was acknowledged.
     *
     * @throws SQLException when the database is unreachable (the snapshot then runs again)
     */
    public void markSnapshotDone(long rows) throws SQLException {
        try (Connection c = connect()) {
            SnapshotMarkers.markDone(c, source.slot(), rows);
        }
    }

    /**
     * Blocks while another process streams from the slot: another relay of the same sources, run as a warm standby.
     * PostgreSQL lets one process at a time stream from a slot, so the relay that holds it publishes and this one
     * waits, already started and connected, to take over within {@link #STANDBY_POLL} of the slot's release (a
     * killed relay's connection closes with its process, and PostgreSQL releases the slot at once).
     *
     * @param stopping  tells the wait to give up (the relay is shutting down)
     * @param standingBy called once, when the slot is found held
     * @return whether the slot is free (false only when stopping)
     * @throws SQLException when the database becomes unreachable
     */
    public boolean awaitSlotFree(BooleanSupplier stopping, Runnable standingBy) throws SQLException,
            InterruptedException {
        long since = 0;
        try (Connection c = connect()) {
            while (!stopping.getAsBoolean()) {
                Optional<String> holder = SlotRepository.holder(c, source.slot());
                if (holder.isEmpty()) {
                    if (since != 0) {
                        log.info("Source '{}': slot '{}' was let go after {} ms on standby; taking over",
                                source.name(), source.slot(), (System.nanoTime() - since) / 1_000_000);
                    }
                    return true;
                }
                if (since == 0) {
                    since = System.nanoTime();
                    standingBy.run();
                    log.info("Source '{}': slot '{}' is streamed by {}: standing by (checking every {} ms)",
                            source.name(), source.slot(), holder.get(), STANDBY_POLL.toMillis());
                }
                Thread.sleep(STANDBY_POLL.toMillis());
            }
        }
        return false;
    }

    /**
     * Blocks until the publication exists and contains the outbox table, checking every second.
     *
     * @param stopping tells the wait to give up (the relay is shutting down)
     * @return whether the publication is there (false only when stopping)
     * @throws SQLException when the database becomes unreachable
     */
    public boolean awaitPublication(BooleanSupplier stopping) throws SQLException, InterruptedException {
        int attempts = 0;
        try (Connection c = connect()) {
            while (!stopping.getAsBoolean()) {
                String missing = whatIsMissing(c);
                if (missing == null) {
                    if (attempts > 0) {
                        log.info("Source '{}': {} is now published by {}; starting its engine",
                                source.name(), source.table(), source.publication());
                    }
                    return true;
                }
                if (attempts % 30 == 0) {
                    log.info("Source '{}': waiting for {} (checking every second)", source.name(), missing);
                }
                attempts++;
                Thread.sleep(PUBLICATION_POLL.toMillis());
            }
        }
        return false;
    }

    /**
     * Makes sure the slot can be decoded with the publication. A slot created before its
     * publication existed cannot be (PostgreSQL 15 fails on every change logged between the two
     * with "publication does not exist"); such a slot is advanced to the current position and its
     * snapshot marker cleared, so that {@link #snapshotNeeded()} says yes and rows committed
     * before that position still leave. Only checked while no offsets are stored for the slot: once an engine has stored a
     * position, it has streamed past the publication's creation.
     *
     * @return true when the slot was advanced
     * @throws SQLException when the database refuses for another reason
     */
    public boolean repairSlotOlderThanPublication() throws SQLException {
        try (Connection c = connect()) {
            if (OffsetsRepository.load(c, source.slot()).isPresent()) {
                return false;
            }
            try {
                SlotRepository.peekOne(c, source.slot(), source.publication());
                return false;
            } catch (SQLException e) {
                if (OBJECT_IN_USE.equals(e.getSQLState())) {
                    return false; // another process reads the slot; the engine will say so and retry
                }
                if (!UNDEFINED_OBJECT.equals(e.getSQLState())) {
                    throw e;
                }
            }
            SnapshotMarkers.clear(c, source.slot());
            String lsn = SlotRepository.advanceToNow(c, source.slot());
            log.warn("""

                    ***** Source '{}': slot '{}' is older than publication '{}' and could not be decoded with it. *****
                    ***** Advanced the slot to {}; {} is snapshotted once so that rows already committed still leave (duplicates possible). *****""",
                    source.name(), source.slot(), source.publication(), lsn, source.table());
            return true;
        }
    }

    private void createSlot(Connection c) throws SQLException {
        try {
            String lsn = SlotRepository.createSlot(c, source.slot());
            log.info("Source '{}': created replication slot '{}' (pgoutput) at {}", source.name(), source.slot(), lsn);
        } catch (SQLException e) {
            if (!DUPLICATE_OBJECT.equals(e.getSQLState())) {
                throw e;
            }
            log.info("Source '{}': replication slot '{}' was created concurrently", source.name(), source.slot());
        }
    }

    private void checkUsable(SlotInfo slot, String database) {
        if (!"logical".equals(slot.type()) || !"pgoutput".equals(slot.plugin()) || !database.equals(slot.database())) {
            throw new IllegalStateException("Replication slot '" + source.slot() + "' exists as a " + slot.type()
                    + " slot of plugin " + slot.plugin() + " in database " + slot.database()
                    + ", but source '" + source.name() + "' needs a logical pgoutput slot in database " + database
                    + ": drop that slot or set toolonce.relay.sources[].slot to another name");
        }
    }

    private String whatIsMissing(Connection c) throws SQLException {
        if (!SlotRepository.publicationExists(c, source.publication())) {
            return "publication " + source.publication() + " (CREATE PUBLICATION " + source.publication()
                    + " FOR TABLE " + source.table() + " WITH (publish = 'insert'))";
        }
        if (!SlotRepository.publicationHasTable(c, source.publication(), source.schema(), source.tableName())) {
            return "table " + source.table() + " in publication " + source.publication();
        }
        return null;
    }

    private Connection connect() throws SQLException {
        return SourceConnections.open(source);
    }
}
