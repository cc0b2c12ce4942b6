package dev.toolonce.relay.offsets;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * Turns Kafka Connect's offset map (serialized key → serialized value; both are UTF-8 JSON
 * written by Connect's JsonConverter) into readable text and back, so an operator can read
 * {@code toolonce_relay.offsets} with psql. A null value (a deleted offset) stays null.
 */
final class OffsetsCodec {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private OffsetsCodec() {
    }

    static String encode(Map<ByteBuffer, ByteBuffer> data) {
        Map<String, String> text = new LinkedHashMap<>();
        data.forEach((k, v) -> {
            if (k != null) {
                text.put(utf8(k), v == null ? null : utf8(v));
            }
        });
        return JSON.writeValueAsString(text);
    }

    @SuppressWarnings("unchecked")
    static Map<ByteBuffer, ByteBuffer> decode(String text) {
        Map<String, String> parsed = JSON.readValue(text, Map.class);
        Map<ByteBuffer, ByteBuffer> data = new HashMap<>();
        parsed.forEach((k, v) -> data.put(bytes(k), v == null ? null : bytes(v)));
        return data;
    }

    private static String utf8(ByteBuffer buffer) {
        ByteBuffer b = buffer.duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
