package dev.toolonce.demo;

import dev.toolonce.schemas.ToolIntent;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The demo's mixed batch: logical operations over the four reference tools, each with an {@code opId},
 * some published through {@code IntentPublisher} and some straight to Kafka, plus redeliveries of the same
 * record, client retries with new message ids, same-key/different-argument conflicts and malformed records.
 */
final class Workload {
    private static final String[][] TOOLS = {
            {"payments", "charge"}, {"tickets", "create"}, {"email", "send"}, {"counter", "apply"}};

    /** How an intent reaches the intents topic. */
    enum Route { PUBLISHER, KAFKA }

    /** What the demo expects of an intent. */
    enum Kind { ORIGINAL, CLIENT_RETRY, CONFLICT }

    /** One intent message to send ({@code redeliver}: the same record is sent twice). */
    record Planned(ToolIntent intent, String opId, Route route, Kind kind, boolean redeliver) {
    }

    final String run;
    final String tenant;
    final List<Planned> intents = new ArrayList<>();
    final List<byte[]> malformed = new ArrayList<>();

    Workload(String run, int operations, long seed) {
        this.run = run;
        this.tenant = "demo-" + run;
        Random random = new Random(seed);
        for (int i = 0; i < operations; i++) {
            String[] tool = TOOLS[i % TOOLS.length];
            String opId = run + "-op-" + i;
            ToolIntent original = intent(tool, "task-" + (i / 4), Integer.toString(i % 4), "key-" + i, opId, 1000 + i);
            Route route = i % 2 == 0 ? Route.PUBLISHER : Route.KAFKA;
            intents.add(new Planned(original, opId, route, Kind.ORIGINAL, route == Route.KAFKA && i % 5 == 1));
            if (i % 7 == 0) {
                intents.add(new Planned(original, opId, Route.KAFKA, Kind.CLIENT_RETRY, false));
            }
            if (i % 11 == 3) {
                ToolIntent conflict = intent(tool, "task-" + (i / 4), Integer.toString(i % 4), "key-" + i, opId, 5000 + i);
                intents.add(new Planned(conflict, opId, Route.KAFKA, Kind.CONFLICT, false));
            }
        }
        malformed.add("{not json".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        malformed.add(("{\"tenantId\":\"" + tenant + "\",\"tool\":\"payments\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        malformed.add(("{\"tenantId\":\"" + tenant + "\",\"tool\":\"counter\",\"operation\":\"apply\",\"idempotencyKey\":\"k\","
                + "\"arguments\":[1,2]}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        java.util.Collections.shuffle(intents.subList(0, intents.size()), random);
    }

    private ToolIntent intent(String[] tool, String task, String step, String key, String opId, int amount) {
        ObjectNode args = JsonNodeFactory.instance.objectNode();
        args.put("opId", opId);
        switch (tool[0]) {
            case "payments" -> args.put("amount", amount).put("currency", "EUR");
            case "tickets" -> args.put("title", "Ticket for " + opId).put("priority", amount % 3);
            case "email" -> args.put("to", "user" + amount + "@example.com").put("subject", "Order " + amount);
            default -> args.put("delta", amount);
        }
        return new ToolIntent(null, tenant, tool[0], tool[1], key, args, run + "-" + task, step,
                java.time.Instant.now().toString());
    }
}
