package dev.toolonce.demo;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * {@code ./toolonce demo}: sends a mixed batch of intents to the running stack, waits for the results
 * while showing progress, and prints a summary judged from the sandbox ledger and the results topic.
 * Exits 0 only when nothing was lost, duplicated or left stuck.
 */
public final class DemoMain {

    private DemoMain() {
    }

    public static void main(String[] args) throws Exception {
        // Not logback.xml: the system tests put this module on the services' classpath too.
        System.setProperty("logback.configurationFile", "demo-logback.xml");
        DemoConfig config = DemoConfig.fromEnvironment(System.getenv());
        DemoReport report = run(config, UUID.randomUUID().toString().substring(0, 8));
        report.print(System.out);
        System.exit(report.clean() ? 0 : 1);
    }

    /** Runs one workload against the stack and returns what it found. */
    public static DemoReport run(DemoConfig config, String runId) throws Exception {
        Workload workload = new Workload(runId, config.operations(), runId.hashCode());
        Map<String, Workload.Planned> sent = new HashMap<>();
        SandboxLedger ledger = new SandboxLedger();
        ledger.get(config.relayUrl() + "/relay/stats", config.authorization()); // fail fast when the relay is not up
        System.out.printf("run %s: sending %d intents (%d logical operations) and %d malformed records%n",
                runId, workload.intents.size(), config.operations(), workload.malformed.size());
        Faults faults = new Faults(config.sandboxUrl());
        if (config.faults()) {
            faults.inject();
            System.out.println("faults injected at the sandbox: " + Faults.PLAN);
        }
        Instant start = Instant.now();
        try (Sender sender = new Sender(config)) {
            for (Workload.Planned p : workload.intents) {
                sent.put(sender.send(p), p);
            }
            for (int i = 0; i < workload.malformed.size(); i++) {
                sender.sendRaw(workload.tenant + "/malformed-" + i, workload.malformed.get(i));
            }
        }
        Sagas sagas = new Sagas(config, workload.tenant, runId);
        sagas.submit(config.sagas());
        System.out.printf("sent in %d ms, and %d sagas (reserve a ticket -> dry run of the charge, then the charge -> "
                + "confirmation email, every fourth charge refused by its dry run); waiting for results%n", Duration.between(start, Instant.now()).toMillis(),
                config.sagas());
        try (ResultCollector results = new ResultCollector(config.kafkaBootstrap(), workload.tenant)) {
            awaitResults(results, sent, workload.malformed.size(), config.timeout());
            long open = sagas.await(start.plus(config.timeout()));
            System.out.printf("  sagas: %d still running%n", open);
            Thread.sleep(1000); // a last look for late duplicates before judging
            results.poll(Duration.ofMillis(500));
            JsonNode injected = ledger.get(config.sandboxUrl() + "/_faults").path("injected");
            faults.clear();
            return DemoReport.judge(config, workload, sent, results, ledger, injected,
                    Duration.between(start, Instant.now()), sagas.summary());
        }
    }

    private static void awaitResults(ResultCollector results, Map<String, Workload.Planned> sent, int malformed,
                                     Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        Instant nextPrint = Instant.now();
        while (Instant.now().isBefore(deadline)) {
            results.poll(Duration.ofMillis(200));
            long answered = sent.keySet().stream().filter(results.byIntent::containsKey).count();
            if (Instant.now().isAfter(nextPrint) || answered == sent.size()) {
                System.out.printf("  results: %d/%d intents answered (%d result records)%n",
                        answered, sent.size(), results.records);
                nextPrint = Instant.now().plusSeconds(1);
            }
            if (answered == sent.size() && results.deadLettered >= malformed) {
                return;
            }
        }
        System.out.println("  timed out waiting; judging what arrived");
    }
}
