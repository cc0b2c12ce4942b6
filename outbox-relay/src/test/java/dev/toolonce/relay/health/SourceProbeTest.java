package dev.toolonce.relay.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.toolonce.relay.slot.SlotRepository.SlotState;

class SourceProbeTest {

    static final Instant NOW = Instant.parse("2026-12-02T06:00:00Z");
    static final SlotState STREAMED = new SlotState(true, "reserved", 4096L, 128L);

    /** A connection whose next answers the test sets; counts how often it was closed. */
    static final class StubSession implements SourceProbe.Session {
        boolean answers = true;
        SQLException fails;
        Optional<SlotState> slot = Optional.of(STREAMED);
        int closed;
        int queries;

        @Override
        public boolean answers() throws SQLException {
            if (fails != null) {
                throw fails;
            }
            return answers;
        }

        @Override
        public Optional<SlotState> slotState(String slotName) {
            queries++;
            return slot;
        }

        @Override
        public void close() {
            closed++;
        }
    }

    /** Hands out the queued sessions, then refuses like a database that is down. */
    static final class StubOpener implements SourceProbe.Opener {
        final Deque<StubSession> sessions = new ArrayDeque<>();
        int opened;

        StubOpener with(StubSession... s) {
            sessions.addAll(List.of(s));
            return this;
        }

        @Override
        public SourceProbe.Session open() throws SQLException {
            opened++;
            if (sessions.isEmpty()) {
                throw new SQLException("Connection to 127.0.0.1:5432 refused", "08001");
            }
            return sessions.poll();
        }
    }

    static SourceProbe probe(StubOpener opener) {
        return new SourceProbe("executor", "executor_slot", opener, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void beforeTheFirstProbeNothingIsReachableOrReady() {
        ProbeReading r = probe(new StubOpener()).latest();
        assertThat(r.databaseReachable()).isFalse();
        assertThat(r.slotReady()).isFalse();
        assertThat(r.slot().checkedAt()).isNull();
    }

    @Test
    void slotReadinessFollowsTheLatestProbeNotTheFirst() {
        StubSession db = new StubSession();
        SourceProbe p = probe(new StubOpener().with(db));

        assertThat(p.probe().slotReady()).isTrue();
        db.slot = Optional.empty(); // dropped, e.g. by an operator or lost in a failover
        ProbeReading gone = p.probe();
        assertThat(gone.slotReady()).isFalse();
        assertThat(gone.databaseReachable()).isTrue();
        assertThat(p.latest()).isEqualTo(gone);

        db.slot = Optional.of(new SlotState(false, "lost", null, null));
        assertThat(p.probe().slotReady()).as("an invalidated slot exists but cannot deliver").isFalse();
        db.slot = Optional.of(new SlotState(false, "reserved", 0L, 0L));
        assertThat(p.probe().slotReady()).as("ready before anything streams from it (standby, engine starting)")
                .isTrue();
    }

    @Test
    void oneConnectionCarriesTheDatabaseCheckAndTheSlotQueryRoundAfterRound() {
        StubSession db = new StubSession();
        StubOpener opener = new StubOpener().with(db);
        SourceProbe p = probe(opener);
        for (int i = 0; i < 5; i++) {
            p.probe();
        }
        assertThat(opener.opened).isEqualTo(1);
        assertThat(db.queries).isEqualTo(5);
        assertThat(db.closed).isZero();
    }

    @Test
    void aKeptConnectionThatFailsIsReplacedAtOnceWithinTheSameProbe() {
        StubSession old = new StubSession();
        StubSession fresh = new StubSession();
        StubOpener opener = new StubOpener().with(old, fresh);
        SourceProbe p = probe(opener);
        p.probe();

        old.fails = new SQLException("An I/O error occurred while sending to the backend.", "08006");
        ProbeReading r = p.probe();

        assertThat(r.databaseReachable()).isTrue();
        assertThat(r.slotReady()).isTrue();
        assertThat(old.closed).isEqualTo(1);
        assertThat(opener.opened).isEqualTo(2);
    }

    @Test
    void aDatabaseThatIsDownIsUnreachableAndTheSlotKeepsItsLastValuesWithTheError() {
        StubSession db = new StubSession();
        StubOpener opener = new StubOpener().with(db);
        SourceProbe p = probe(opener);
        p.probe();

        db.fails = new SQLException("An I/O error occurred while sending to the backend.", "08006");
        ProbeReading down = p.probe();
        assertThat(down.databaseReachable()).isFalse();
        assertThat(down.slotReady()).isFalse();
        assertThat(down.slot().present()).isTrue();
        assertThat(down.slot().retainedWalBytes()).isEqualTo(4096L);
        assertThat(down.slot().error()).isEqualTo("SQLException: Connection to 127.0.0.1:5432 refused");

        opener.with(new StubSession()); // the database is back
        assertThat(p.probe().databaseReachable()).isTrue();
        assertThat(p.latest().slotReady()).isTrue();
    }

    @Test
    void aConnectionThatDoesNotAnswerInTimeCountsAsUnreachable() {
        StubSession db = new StubSession();
        db.answers = false;
        ProbeReading r = probe(new StubOpener().with(db)).probe();
        assertThat(r.databaseReachable()).isFalse();
        assertThat(db.closed).isEqualTo(1);
    }
}
