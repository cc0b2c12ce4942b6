package dev.toolonce.relay.health;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.config.SourceConnections;
import dev.toolonce.relay.slot.SlotReading;
import dev.toolonce.relay.slot.SlotRepository;
import dev.toolonce.relay.slot.SlotRepository.SlotState;

/**
 * Probes one source on one kept JDBC connection: whether the database answers
 * ({@link Connection#isValid}, pgjdbc's empty query) and, on the same connection, what
 * {@code pg_replication_slots} says about the source's slot. A kept connection that fails (the
 * database restarted meanwhile) is dropped and the probe retried once on a fresh one; a probe that
 * still fails marks the database unreachable and keeps the slot's last values with the error
 * ({@link SlotReading#failed}). Database failures never escape {@link #probe()}; anything else
 * (an {@link Error}) is left to the caller's loop, {@link RelayProbes#probeAll()}.
 *
 * <p>{@link #probe()} and {@link #close()} run on the relay's watchdog thread only;
 * {@link #latest()} may be read from any thread. Changes are logged once.
 */
public final class SourceProbe {

    /** Seconds one probe query may block, and the connection's socket timeout. */
    static final int TIMEOUT_SECONDS = 3;
    private static final Logger log = LoggerFactory.getLogger(SourceProbe.class);

    /** The probe's two queries on one open connection: JDBC in production, a stub in tests. */
    interface Session {
        /** @return whether the connection answers within {@link #TIMEOUT_SECONDS} */
        boolean answers() throws SQLException;

        /** @return the slot's state, or empty when the slot does not exist */
        Optional<SlotState> slotState(String slot) throws SQLException;

        /** Closes the connection; never throws. */
        void close();
    }

    /** Opens a new {@link Session}. */
    @FunctionalInterface
    interface Opener {
        Session open() throws SQLException;
    }

    private final String source;
    private final String slot;
    private final Opener opener;
    private final Clock clock;
    private final AtomicReference<ProbeReading> latest;
    private Session session;
    private boolean probedBefore;

    SourceProbe(String source, String slot, Opener opener, Clock clock) {
        this.source = source;
        this.slot = slot;
        this.opener = opener;
        this.clock = clock;
        this.latest = new AtomicReference<>(ProbeReading.unknown(source, slot));
    }

    /** A probe of the source database over the relay's own JDBC connection ({@link SourceConnections}). */
    static SourceProbe jdbc(Source source, Clock clock) {
        return new SourceProbe(source.name(), source.slot(),
                () -> new JdbcSession(SourceConnections.open(source, TIMEOUT_SECONDS)), clock);
    }

    /** The source's name. */
    public String source() {
        return source;
    }

    /** What the latest probe found; before the first one, nothing reachable and the slot unknown. Never null. */
    public ProbeReading latest() {
        return latest.get();
    }

    /**
     * Probes once and publishes the result as {@link #latest()}.
     *
     * @return the new reading
     */
    ProbeReading probe() {
        ProbeReading before = latest.get();
        ProbeReading now = probeWithOneRetry(before);
        latest.set(now);
        logChange(before, now);
        return now;
    }

    /** Closes the kept connection, if any. */
    void close() {
        drop();
    }

    private ProbeReading probeWithOneRetry(ProbeReading before) {
        boolean kept = session != null;
        try {
            return attempt();
        } catch (SQLException | RuntimeException first) {
            drop();
            if (!kept) {
                return failed(before, first);
            }
            try {
                return attempt();
            } catch (SQLException | RuntimeException again) {
                drop();
                return failed(before, again);
            }
        }
    }

    private ProbeReading attempt() throws SQLException {
        if (session == null) {
            session = opener.open();
        }
        if (!session.answers()) {
            throw new SQLException("the database did not answer within " + TIMEOUT_SECONDS + " s");
        }
        SlotReading reading = session.slotState(slot)
                .map(st -> new SlotReading(source, slot, true, st.active(), st.walStatus(), st.retainedWalBytes(),
                        st.confirmedLagBytes(), clock.instant(), null))
                .orElseGet(() -> new SlotReading(source, slot, false, false, null, null, null, clock.instant(), null));
        return new ProbeReading(true, reading);
    }

    private static ProbeReading failed(ProbeReading before, Exception why) {
        log.debug("Source '{}': probe failed", before.slot().source(), why);
        return new ProbeReading(false, before.slot().failed(why.getClass().getSimpleName() + ": " + why.getMessage()));
    }

    private void drop() {
        Session broken = session;
        session = null;
        if (broken != null) {
            broken.close();
        }
    }

    private void logChange(ProbeReading before, ProbeReading now) {
        boolean first = !probedBefore;
        probedBefore = true;
        if (first || now.databaseReachable() != before.databaseReachable()) {
            if (now.databaseReachable()) {
                log.info("{} database is reachable", source);
            } else {
                log.warn("{} database is UNREACHABLE; the relay is not ready until it answers again", source);
            }
        }
        SlotReading b = before.slot();
        SlotReading n = now.slot();
        if (n.healthy() && !b.healthy()) {
            log.info("Source '{}': replication slot '{}' is streamed from (retained WAL {} bytes)", source, slot,
                    n.retainedWalBytes());
        } else if (!n.healthy() && b.healthy()) {
            log.warn("Source '{}': {}", source, n.problem());
        }
    }

    /** The production {@link Session}: one auto-commit connection with a short socket timeout. */
    private static final class JdbcSession implements Session {
        private final Connection connection;

        JdbcSession(Connection connection) {
            this.connection = connection;
        }

        @Override
        public boolean answers() throws SQLException {
            return connection.isValid(TIMEOUT_SECONDS);
        }

        @Override
        public Optional<SlotState> slotState(String slot) throws SQLException {
            return SlotRepository.slotState(connection, slot);
        }

        @Override
        public void close() {
            try {
                connection.close();
            } catch (SQLException | RuntimeException ignored) {
                // discarded either way
            }
        }
    }
}
