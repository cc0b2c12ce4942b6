package dev.toolonce.chaos.faults;

import dev.toolonce.chaos.stack.ChaosStack;
import dev.toolonce.chaos.stack.Poll;
import dev.toolonce.chaos.stack.Service;
import dev.toolonce.chaos.stack.Sleep;
import dev.toolonce.chaos.workload.ResultsWatch;
import dev.toolonce.chaos.workload.SentCall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every fault the experiment knows, most important first (issue 11's list). Each restores what it broke before it
 * returns, so that the next round starts from a whole stack.
 */
public final class Catalogue {
    private static final String[] TOOLS = {"payments", "tickets", "email", "counter"};
    private static final Duration FIRE_WAIT = Duration.ofSeconds(90);
    private static final Duration OFTEN = Duration.ofMillis(50);
    // The relay's crash point names (outbox-relay RelayCrashPoints; the chaos module does not depend on the relay).
    private static final String RELAY_AFTER_READ = "relay-after-read";
    private static final String RELAY_AFTER_SEND = "relay-after-send";

    private Catalogue() {
    }

    /** Every fault by name, in the order they run. */
    public static Map<String, Fault> all() {
        Map<String, Fault> faults = new LinkedHashMap<>();
        add(faults, "executor-kill-claimed", "executor halts after the claim, before the tool call (crash point before-send)",
                ctx -> crashAt(ctx, "before-send"));
        add(faults, "executor-kill-applied", "executor halts after the tool applied, before recording (after-tool-before-record)",
                ctx -> crashAt(ctx, "after-tool-before-record"));
        add(faults, "executor-kill-recorded", "executor halts after recording, before the offset commit (after-record)",
                ctx -> crashAt(ctx, "after-record"));
        add(faults, "relay-kill", "SIGKILL of the publishing relay while changes stream: its standby takes over, and it is "
                + "restarted as the new standby", ctx -> killRestart(ctx.stack().publishingRelay()));
        add(faults, "relay-kill-read", "relay halts after reading a batch from the WAL, before sending it (relay-after-read)",
                ctx -> relayCrashAt(ctx, RELAY_AFTER_READ));
        add(faults, "relay-kill-sent", "relay halts after Kafka acknowledged a batch, before the offset flush (relay-after-send)",
                ctx -> relayCrashAt(ctx, RELAY_AFTER_SEND));
        add(faults, "pg-kill", "SIGKILL of the PostgreSQL postmaster, crash recovery on restart", Catalogue::pgKill);
        add(faults, "kafka-kill", "SIGKILL of the Kafka broker, log recovery on restart", ctx -> kafka(ctx, true));
        add(faults, "lost-response", "the tool applies, the response is lost (sandbox failNext)",
                ctx -> sandboxFault(ctx, "failNext", "{\"failNext\":1}"));
        add(faults, "duplicate-delivery", "20 intents already sent produced again with their message ids",
                Catalogue::duplicates);
        add(faults, "zombie", "SIGSTOP of an executor past its lease and session, SIGCONT after the other took over",
                Catalogue::zombie);
        add(faults, "consumer-kill", "SIGKILL of the result consumer mid-batch, restarted",
                ctx -> killRestart(ctx.stack().consumer));
        add(faults, "kafka-restart", "clean restart of the Kafka broker (SIGTERM, controlled shutdown)",
                ctx -> kafka(ctx, false));
        add(faults, "pg-restart", "PostgreSQL fast restart (pg_ctl restart -m fast)", Catalogue::pgRestart);
        add(faults, "rebalance", "an executor instance removed (SIGTERM) and added again: the group rebalances mid-batch",
                Catalogue::rebalance);
        add(faults, "relay-wal-backlog", "relay stopped while WAL piles up, then restarted; the slots' retained WAL before and after",
                Catalogue::walBacklog);
        add(faults, "stall", "the tool stalls past the executor's read timeout after applying (sandbox stallMs)",
                ctx -> sandboxFault(ctx, "stall", "{\"stallMs\":" + (ChaosStack.READ_TIMEOUT.toMillis() + 2000) + "}"));
        add(faults, "status-after-effect", "the tool applies, then answers 503 (sandbox failStatusAfterApply)",
                ctx -> sandboxFault(ctx, "statusAfterApply",
                        "{\"failStatus\":503,\"failStatusNext\":1,\"failStatusAfterApply\":true}"));
        add(faults, "poison", "malformed JSON, a schema violation and a ce_id mismatch mixed into the intents",
                Catalogue::poison);
        add(faults, "conflict", "the same key with a different payload", ctx -> {
            ctx.workload().conflict();
            return Injection.fired(System.nanoTime(), "1 conflicting payload");
        });
        add(faults, "concurrent-64", "64 concurrent deliveries of one key (counter: a tool that deduplicates nothing)",
                ctx -> {
                    long at = System.nanoTime();
                    int n = ctx.workload().concurrent(64);
                    return n == 64 ? Injection.fired(at, "64 deliveries of one key") : Injection.missed(n + " of 64 sent");
                });
        add(faults, "compensation-failure", "a committed charge refunded out of band, then compensated: the provider refuses, "
                + "the original must go to review; a ticket compensated in the same round must end COMPENSATED",
                Catalogue::compensationFailure);
        return faults;
    }

    /**
     * The faults of {@code --smoke}: an executor kill, the relay halted between Kafka's acknowledgement and its offset
     * flush, a lost response, duplicates, a compensation that fails.
     */
    public static List<String> smoke() {
        return List.of("executor-kill-applied", "relay-kill-sent", "lost-response", "duplicate-delivery",
                "compensation-failure");
    }

    /** The faults the unsafe baseline runs by default: those the naive pattern claims to survive. */
    public static List<String> baseline() {
        return List.of("executor-kill-applied", "executor-kill-recorded", "lost-response", "duplicate-delivery",
                "zombie", "stall");
    }

    private static void add(Map<String, Fault> faults, String name, String description, Fault.Action action) {
        faults.put(name, new Fault(name, description, action));
    }

    /** The second executor restarted with {@code point} armed; it halts there on the first call to reach it. */
    private static Injection crashAt(FaultContext ctx, String point) {
        return haltAt(ctx.stack().executorB, point, ctx.stack().crashArgs(point));
    }

    /**
     * The publishing relay restarted with {@code point} armed while its standby is down, so that it takes every slot;
     * then the standby is started again and stands by, as production's second replica does. Only then is the point
     * made live (its arm file created): the armed relay halts there on its next batch of outbox rows, the warm
     * standby takes over, and the halted relay is restarted clean as the new standby.
     */
    private static Injection relayCrashAt(FaultContext ctx, String point) {
        Service armed = ctx.stack().publishingRelay();
        Service standby = ctx.stack().otherRelay(armed);
        Path arm = ctx.stack().relayArmFile();
        try {
            Files.deleteIfExists(arm); // the last injection's: the relay restarted below must not halt at once
            standby.stop();
            armed.stop();
            armed.startArmed(ctx.stack().relayCrashArgs(point));
            standby.start();
            Files.createFile(arm);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot arm the relay's crash point with " + arm, e);
        }
        return awaitHalt(armed, point); // restarts the halted relay without the fault-injection settings
    }

    private static Injection haltAt(Service service, String point, List<String> armed) {
        service.stop();
        service.startArmed(armed);
        return awaitHalt(service, point);
    }

    /** Waits for an armed service to halt at {@code point}, then restarts it without the fault-injection setting. */
    private static Injection awaitHalt(Service service, String point) {
        int exit = service.awaitOwnExit(FIRE_WAIT);
        // The halt may have happened a while ago (a relay can halt while its standby is still starting): recovery
        // counts from the halt itself.
        long at = service.exitedNanos(System.nanoTime());
        if (exit == -1) {
            service.stop();
            service.start();
            return Injection.missed("crash point " + point + " not reached within " + FIRE_WAIT);
        }
        service.start(); // restarted without the fault-injection setting
        return exit == 137 ? Injection.fired(at, "halted at " + point + ", restarted clean")
                : Injection.missed("exited with " + exit + ", not at the crash point");
    }

    private static Injection killRestart(Service service) {
        long at = System.nanoTime();
        boolean killed = service.kill9();
        service.start();
        return killed ? Injection.fired(at, "SIGKILL " + service.name() + ", restarted")
                : Injection.missed(service.name() + " was not running");
    }

    private static Injection rebalance(FaultContext ctx) {
        Service b = ctx.stack().executorB;
        boolean wasUp = b.alive();
        long at = System.nanoTime();
        b.stop();
        Sleep.millis(2000);
        b.start();
        return wasUp ? Injection.fired(at, b.name() + " left and rejoined the group")
                : Injection.missed(b.name() + " was not running");
    }

    /** Both relays stopped, so that nothing streams from the slots while the WAL piles up; then both started again. */
    private static Injection walBacklog(FaultContext ctx) {
        List<Service> relays = ctx.stack().relays();
        long at = System.nanoTime();
        relays.forEach(Service::stop);
        long before = ctx.stack().retainedWalBytes();
        Sleep.millis(5000);
        long piled = ctx.stack().retainedWalBytes();
        relays.forEach(Service::start);
        long after = Poll.until(ctx.stack()::retainedWalBytes, wal -> wal < piled, FIRE_WAIT, Duration.ofMillis(500));
        String note = "unconfirmed WAL " + before / 1024 + " KiB at stop, " + piled / 1024 + " KiB after 5 s, "
                + after / 1024 + " KiB after restart";
        return piled > before ? Injection.fired(at, note) : Injection.missed("no WAL piled up: " + note);
    }

    private static Injection pgKill(FaultContext ctx) {
        long at = System.nanoTime();
        boolean killed = ctx.stack().killPostgres();
        ctx.stack().infraUp();
        return killed ? Injection.fired(at, "SIGKILL postmaster, restarted") : Injection.missed("no postmaster");
    }

    private static Injection pgRestart(FaultContext ctx) {
        long at = System.nanoTime();
        ctx.stack().restartPostgres();
        return Injection.fired(at, "pg_ctl restart -m fast");
    }

    private static Injection kafka(FaultContext ctx, boolean kill9) {
        long at = System.nanoTime();
        boolean stopped = ctx.stack().stopKafka(kill9);
        ctx.stack().infraUp();
        return stopped ? Injection.fired(at, (kill9 ? "SIGKILL" : "SIGTERM") + " broker, restarted")
                : Injection.missed("broker was not running");
    }

    /** Arms a sandbox fault on one tool (a different one each round) until the sandbox counts it, then clears it. */
    private static Injection sandboxFault(FaultContext ctx, String kind, String config) {
        String tool = TOOLS[(ctx.round() - 1) % TOOLS.length];
        long before = ctx.sandbox().injected(tool, kind);
        ctx.sandbox().faults(tool, config);
        Poll.until(() -> ctx.sandbox().injected(tool, kind), now -> now > before, FIRE_WAIT, OFTEN);
        long at = System.nanoTime();
        ctx.sandbox().faults(tool, "{}");
        long fired = ctx.sandbox().injected(tool, kind) - before;
        List<Long> ats = new ArrayList<>();
        for (int i = 0; i < fired; i++) {
            ats.add(at);
        }
        return new Injection((int) fired, ats, fired + " × " + kind + " on " + tool);
    }

    private static Injection duplicates(FaultContext ctx) {
        long at = System.nanoTime();
        int n = ctx.workload().redeliverRecent(20);
        return n > 0 ? Injection.fired(at, n + " records produced again") : Injection.missed("nothing sent yet");
    }

    private static Injection zombie(FaultContext ctx) {
        Service b = ctx.stack().executorB;
        long at = System.nanoTime();
        b.signal("STOP");
        // The kernel stops the process asynchronously: a state read at once may still say R (round 3 of the
        // 20-round run missed that way), so wait up to 2 s for T.
        char state = Poll.until(b::procState, s -> s == 'T', Duration.ofSeconds(2), OFTEN);
        // Past the lease (the sweeper takes its calls) and the Kafka session (its partitions move to the other).
        Sleep.millis(ChaosStack.LEASE.toMillis() + 12_000);
        b.signal("CONT");
        return state == 'T' ? Injection.fired(at, "SIGSTOP " + (ChaosStack.LEASE.toSeconds() + 12) + " s, SIGCONT")
                : Injection.missed("process state after SIGSTOP was " + state);
    }

    /**
     * A compensation that fails finally, the way it fails in production: the charge was refunded behind ToolOnce's
     * back (an operator in the provider's dashboard), so the provider refuses the compensation's refund (400
     * {@code charge_already_refunded}). The compensation must be answered {@code FAILED_FINAL} and its original must
     * end {@code NEEDS_REVIEW} ({@code COMPENSATION_FAILED}): the oracle then counts it in review, not stuck, and a
     * second refund would show as a refused request, never as a second effect. Fired when the compensation is
     * answered {@code FAILED_FINAL}. A ticket created and compensated in the same round is the control; its
     * outcome is in the note.
     */
    private static Injection compensationFailure(FaultContext ctx) {
        SentCall charge = ctx.workload().call(0);
        SentCall ticket = ctx.workload().call(1);
        if (charge == null || ticket == null) {
            return Injection.missed("the charge or the ticket was not handed to Kafka");
        }
        String charged = status(awaitAnswer(ctx, charge));
        String ticketed = status(awaitAnswer(ctx, ticket));
        String chargeId = ctx.sandbox().externalObjectId(charge.opId(), "charge");
        if (!"COMMITTED".equals(charged) || chargeId == null) {
            return Injection.missed("the charge was answered " + charged + " with charge id " + chargeId);
        }
        int refunded = ctx.sandbox().refundOutOfBand(chargeId, "out-of-band-" + charge.opId());
        if (refunded != 201) {
            return Injection.missed("the out-of-band refund of " + chargeId + " was answered " + refunded);
        }
        long at = System.nanoTime();
        SentCall compensation = ctx.workload().compensate(charge, 0);
        SentCall control = "COMMITTED".equals(ticketed) ? ctx.workload().compensate(ticket, 1) : null;
        if (compensation == null) {
            return Injection.missed("the compensation was not handed to Kafka");
        }
        ResultsWatch.Answer answer = awaitAnswer(ctx, compensation);
        String controlNote = control == null ? "no control: the ticket was answered " + ticketed
                : "control: the ticket's compensation answered " + status(awaitAnswer(ctx, control));
        return answer != null && "FAILED_FINAL".equals(answer.status())
                ? Injection.fired(at, "charge refunded out of band, its compensation answered FAILED_FINAL "
                + answer.errorCode() + "; " + controlNote)
                : Injection.missed("the compensation was answered " + status(answer) + "; " + controlNote);
    }

    private static ResultsWatch.Answer awaitAnswer(FaultContext ctx, SentCall call) {
        return Poll.until(() -> ctx.watch().answer(call.messageId()), Objects::nonNull, FIRE_WAIT, OFTEN);
    }

    private static String status(ResultsWatch.Answer answer) {
        return answer == null ? "nothing within " + FIRE_WAIT : answer.status();
    }

    private static Injection poison(FaultContext ctx) {
        long at = System.nanoTime();
        List<String> keys = ctx.workload().poison(3);
        long dead = Poll.until(() -> keys.stream().filter(ctx.watch()::deadLettered).count(), n -> n == keys.size(),
                FIRE_WAIT, OFTEN);
        return dead == keys.size() ? Injection.fired(at, dead + " poison records dead-lettered")
                : Injection.missed(dead + " of " + keys.size() + " poison records reached the DLQ");
    }
}
