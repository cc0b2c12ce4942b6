package dev.toolonce.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TraceParentTest {
    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void keepsAValidTraceparent() {
        assertThat(TraceParent.valid(VALID)).isEqualTo(VALID);
        assertThat(TraceParent.valid(" " + VALID + " ")).isEqualTo(VALID);
        assertThat(TraceParent.valid(VALID.getBytes(StandardCharsets.UTF_8))).isEqualTo(VALID);
        assertThat(TraceParent.traceId(VALID)).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void aLaterVersionKeepsTheFieldsItShares() {
        assertThat(TraceParent.valid("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"))
                .isEqualTo("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    }

    @Test
    void dropsWhatIsNotATraceparent() {
        assertThat(TraceParent.valid((String) null)).isNull();
        assertThat(TraceParent.valid("")).isNull();
        assertThat(TraceParent.valid("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")).as("upper case").isNull();
        assertThat(TraceParent.valid("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).as("zero trace").isNull();
        assertThat(TraceParent.valid("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01")).as("zero parent").isNull();
        assertThat(TraceParent.valid("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).as("version ff").isNull();
        assertThat(TraceParent.valid(VALID + "-more")).as("version 00 with extra fields").isNull();
        assertThat(TraceParent.valid("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\u0000")).isNull();
        assertThat(TraceParent.valid(new byte[] {(byte) 0xff, (byte) 0xfe})).isNull();
        assertThat(TraceParent.valid(new byte[300])).isNull();
    }

    @Test
    void buildsOneFromTheIdsATracerLogs() {
        assertThat(TraceParent.of("4BF92F3577B34DA6A3CE929D0E0E4736", "00f067aa0ba902b7", true)).isEqualTo(VALID);
        assertThat(TraceParent.of("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", false)).endsWith("-00");
        assertThat(TraceParent.of("abc", "00f067aa0ba902b7", true)).isNull();
        assertThat(TraceParent.of(null, "00f067aa0ba902b7", true)).isNull();
    }
}
