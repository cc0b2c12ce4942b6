package dev.toolonce.relay.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class OffsetsCodecTest {

    static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void roundTripsConnectOffsetsAsReadableJson() {
        Map<ByteBuffer, ByteBuffer> data = new HashMap<>();
        data.put(utf8("[\"toolonce-relay-executor\",{\"server\":\"executor\"}]"),
                utf8("{\"lsn\":30761664,\"txId\":733}"));
        data.put(utf8("[\"gone\",{}]"), null);
        String text = OffsetsCodec.encode(data);
        assertThat(text).contains("\"lsn\\\":30761664");
        assertThat(OffsetsCodec.decode(text)).isEqualTo(data);
    }
}
