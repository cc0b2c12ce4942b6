package dev.toolonce.system;

import dev.toolonce.executor.ledger.ToolCallClaims;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * One side of the claim race: {@code threads} claimers, each on its own connection, released together at
 * {@code startAtEpochMillis} (the other process uses the same instant), each trying once to claim the
 * single PLANNED call. Prints {@code WON <id> <fence>} per win and {@code WINS n}. Runs in the test JVM
 * and, as {@code main}, in a second JVM.
 */
public final class ClaimRacer {

    private ClaimRacer() {
    }

    /** args: jdbcUrl startAtEpochMillis threads guarded(true|false) */
    public static void main(String[] args) throws Exception {
        int wins = race(args[0], Long.parseLong(args[1]), Integer.parseInt(args[2]), Boolean.parseBoolean(args[3]));
        System.out.println("WINS " + wins);
        System.out.flush();
    }

    static int race(String jdbcUrl, long startAt, int threads, boolean guarded) throws Exception {
        List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            connections.add(DriverManager.getConnection(jdbcUrl, "postgres", ""));
        }
        CyclicBarrier ready = new CyclicBarrier(threads);
        AtomicInteger wins = new AtomicInteger();
        List<Thread> racers = new ArrayList<>();
        for (Connection c : connections) {
            JdbcTemplate jdbc = new JdbcTemplate(new SingleConnectionDataSource(c, true));
            ToolCallClaims store = new ToolCallClaims(jdbc, "executor");
            UnguardedClaim unguarded = new UnguardedClaim(jdbc);
            Thread t = new Thread(() -> {
                try {
                    ready.await();
                    Thread.sleep(Math.max(0, startAt - System.currentTimeMillis()));
                    List<UnguardedClaim.Won> won = guarded
                            ? store.claim("racer", 1, Duration.ofSeconds(30)).stream()
                                    .map(call -> new UnguardedClaim.Won(call.id(), call.fence())).toList()
                            : unguarded.claim("racer", 1, Duration.ofSeconds(30), Duration.ofMillis(50));
                    for (UnguardedClaim.Won call : won) {
                        wins.incrementAndGet();
                        System.out.println("WON " + call.id() + " " + call.fence());
                    }
                } catch (Exception e) {
                    System.out.println("ERROR " + e);
                }
            });
            t.start();
            racers.add(t);
        }
        for (Thread t : racers) {
            t.join();
        }
        for (Connection c : connections) {
            c.close();
        }
        return wins.get();
    }
}
