package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.chaos.Chaos;
import dev.toolonce.chaos.ChaosMain;
import dev.toolonce.chaos.ChaosOptions;
import dev.toolonce.chaos.faults.Catalogue;
import dev.toolonce.chaos.report.ChaosReport;
import dev.toolonce.chaos.report.FaultSummary;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./toolonce chaos --smoke} inside the test command: a stack of its own (PostgreSQL, Kafka, relay, two
 * executors, result consumer, sandbox, each its own process, under {@code target/chaos-home} on ports of its own),
 * one round of each smoke fault but one (the relay halted after Kafka acknowledged a batch and before its offset
 * flush, a response lost after the effect, records delivered again, a compensation refused by the provider),
 * judged at the sandbox ledger by the workload's opIds, and the executors'
 * {@code /actuator/prometheus} scraped around every round: the meters an operator would watch must have moved
 * (intake, reconciliations after the lost response, the inbox's duplicates after the redelivery, compensations by
 * outcome and arrivals in review after the refused compensation).
 * Correctness only: nothing about speed is asserted.
 *
 * <p>The smoke's executor halted after the tool applied ({@code executor-kill-applied}) is left out here to keep the
 * test command within its budget: {@code RecoveryIT} halts an executor at that very point, and the harness's
 * restart of a halted service is still exercised by the relay's round. {@code ./toolonce chaos --smoke} runs all.
 */
class ChaosSmokeIT {
    private static final List<String> FAULTS =
            List.of("relay-kill-sent", "lost-response", "duplicate-delivery", "compensation-failure");

    @Test
    void everySmokeFaultFiresAndNoCallIsDuplicatedLostOrStuck(@TempDir Path dir) throws Exception {
        Path repo = repoRoot();
        // The services on the client compiler only: they start on about half the CPU; this round asserts outcomes,
        // never speed
        ChaosOptions options = ChaosOptions.parse(List.of("--smoke", "--faults", String.join(",", FAULTS),
                "--jvm-option", "-XX:TieredStopAtLevel=1",
                "--port-base", Integer.toString(freeRange(9)),
                "--home", repo.resolve("system-tests/target/chaos-home").toString(),
                "--json", dir.resolve("chaos.json").toString(), "--html", dir.resolve("chaos.html").toString()), repo);

        ChaosReport report = Chaos.run(options);
        ChaosMain.write(report, options);

        assertThat(Catalogue.smoke()).containsAll(FAULTS).contains("executor-kill-applied");
        assertThat(report.faults()).extracting(FaultSummary::fault).containsExactlyElementsOf(FAULTS);
        assertThat(report.faults()).allSatisfy(f -> {
            assertThat(f.injections()).as("%s fired", f.fault()).isPositive();
            assertThat(f.missedRounds()).as("%s rounds without an injection", f.fault()).isZero();
            assertThat(f.unjudgedRounds()).as("%s rounds the oracle could not judge", f.fault()).isZero();
            assertThat(f.calls()).as("%s calls of the workload", f.fault()).isPositive();
        });
        assertThat(report.duplicates()).as("duplicate side effects at the sandbox ledger").isZero();
        assertThat(report.lost()).as("intents without a final answer").isZero();
        assertThat(report.stuck()).as("calls neither final nor in review").isZero();
        assertThat(report.absorbed()).as("redeliveries and retries the stack had to absorb").isPositive();
        assertThat(report.sagas()).as("sagas of the workload, judged with the single calls").isPositive();
        assertThat(report.problems()).isEmpty();

        // What an operator's dashboard showed meanwhile: the executors' meters on /actuator/prometheus moved.
        assertThat(report.faults()).allSatisfy(f -> assertThat(grew(f, "toolonce_intake_total", ""))
                .as("%s: intents taken in, on the executors' /actuator/prometheus", f.fault()).isPositive());
        FaultSummary lostResponse = fault(report, "lost-response");
        assertThat(grew(lostResponse, "toolonce_reconciliations_total", ""))
                .as("lost-response: unknown outcomes reconciled, by outcome").isPositive();
        assertThat(grew(fault(report, "duplicate-delivery"), "toolonce_intake_total", "disposition=\"DUPLICATE_MESSAGE\""))
                .as("duplicate-delivery: redelivered records recognised by the executors' inbox").isPositive();
        FaultSummary compensation = fault(report, "compensation-failure");
        assertThat(compensation.review()).as("compensation-failure: the original of the refused compensation in review")
                .isPositive();
        assertThat(grew(compensation, "toolonce_compensations_total", "outcome=\"NEEDS_REVIEW\""))
                .as("compensation-failure: a compensation that failed finally, by outcome").isPositive();
        assertThat(grew(compensation, "toolonce_compensations_total", "outcome=\"COMPENSATED\""))
                .as("compensation-failure: the control ticket compensated").isPositive();
        assertThat(grew(compensation, "toolonce_review_arrivals_total", "from=\"COMPENSATING\""))
                .as("compensation-failure: arrivals in review from COMPENSATING").isPositive();
        assertThat(Files.readString(dir.resolve("chaos.html"))).contains("<svg").doesNotContain("<script", "<link", "src=");
    }

    private static FaultSummary fault(ChaosReport report, String name) {
        return report.faults().stream().filter(f -> f.fault().equals(name)).findFirst().orElseThrow();
    }

    /** How much the series of {@code metric} whose labels contain {@code label} grew during the fault's rounds. */
    private static double grew(FaultSummary f, String metric, String label) {
        return f.meters().entrySet().stream()
                .filter(e -> e.getKey().equals(metric) || e.getKey().startsWith(metric + "{"))
                .filter(e -> e.getKey().contains(label))
                .mapToDouble(e -> e.getValue()).sum();
    }

    private static Path repoRoot() {
        for (Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("toolonce"))) {
                return d;
            }
        }
        throw new IllegalStateException("no ./toolonce above " + System.getProperty("user.dir"));
    }

    /** The first base from 23000 up (below the ephemeral range) whose {@code n} ports can all be bound now. */
    private static int freeRange(int n) {
        for (int base = 23_000; base < 24_000; base += 10) {
            boolean free = true;
            for (int p = base; p < base + n && free; p++) {
                free = canBind(p);
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no " + n + " free consecutive ports between 23000 and 24000");
    }

    private static boolean canBind(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
