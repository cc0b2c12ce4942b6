package dev.toolonce.chaos.workload;

import dev.toolonce.agent.publish.IntentRecords;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.ToolIntent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The workload's intents: every reference tool in turn, each call's arguments carrying its {@code opId}, and their
 * Kafka records as the contract has them (docs/contract.md: scope as key, CloudEvents headers in binary mode).
 */
public final class Intents {
    /** The four reference tools of the sandbox and their operations. */
    static final String[][] TOOLS = {{"payments", "charge"}, {"tickets", "create"}, {"email", "send"},
            {"counter", "apply"}};
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final EventCodec codec = new EventCodec();
    private final IntentRecords records;

    /** @param keyring the agents' key every record is signed with */
    public Intents(Keyring keyring) {
        this.records = new IntentRecords("/toolonce/chaos", keyring);
    }

    /** The call number {@code seq} of {@code tenant}; {@code variant} > 0 changes the arguments, not the opId. */
    public ToolIntent intent(String tenant, long seq, int toolIndex, int variant) {
        String[] tool = TOOLS[Math.floorMod(toolIndex, TOOLS.length)];
        String opId = opId(tenant, seq);
        ObjectNode args = JSON.createObjectNode().put("opId", opId);
        switch (tool[0]) {
            case "payments" -> args.put("amount", 100 + seq % 900 + variant).put("currency", "EUR");
            case "tickets" -> args.put("title", "chaos call " + seq + (variant > 0 ? " v" + variant : ""));
            case "email" -> args.put("to", "agent@example.com").put("subject", "chaos " + seq + "/" + variant);
            default -> args.put("delta", 1 + variant);
        }
        return new ToolIntent(null, tenant, tool[0], tool[1], "k-" + seq, args, tenant, Long.toString(seq),
                Instant.now().toString());
    }

    /**
     * The compensation request of call {@code seq} (docs/contract.md §6): the call's tenant, tool and key, the
     * operation {@code <operation>.compensate}. The tool ignores the arguments; they carry an opId of its own.
     */
    public ToolIntent compensation(String tenant, long seq, int toolIndex) {
        String[] tool = TOOLS[Math.floorMod(toolIndex, TOOLS.length)];
        ObjectNode args = JSON.createObjectNode().put("opId", opId(tenant, seq) + ":compensate");
        return new ToolIntent(null, tenant, tool[0], tool[1] + ".compensate", "k-" + seq, args, tenant,
                seq + ".compensate", Instant.now().toString());
    }

    /** The call number of an opId made by {@link #opId}. */
    public static long seqOf(String opId) {
        return Long.parseLong(opId.substring(opId.lastIndexOf(':') + 1));
    }

    /** The ledger's name of call {@code seq}: {@code <tenant>:<seq>}. */
    public static String opId(String tenant, long seq) {
        return tenant + ":" + seq;
    }

    public ProducerRecord<byte[], byte[]> record(ToolIntent intent, String messageId) {
        return records.record(intent, messageId);
    }

    /** A record that must be dead-lettered: malformed JSON, a schema violation, or a body id other than ce_id. */
    public ProducerRecord<byte[], byte[]> poison(String tenant, int n, String messageId) {
        String body = switch (n % 3) {
            case 0 -> "{\"tenantId\": \"" + tenant + "\", not json";
            case 1 -> "{\"messageId\":\"" + messageId + "\",\"tenantId\":\"" + tenant + "\",\"operation\":\"apply\"}";
            default -> codec.write(intent(tenant, 1_000_000 + n, 3, 0).withMessageId("other-" + messageId));
        };
        return records.raw(tenant + "/poison/" + n, body.getBytes(StandardCharsets.UTF_8), messageId);
    }

}
