package dev.toolonce.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The codec refuses what exceeds {@link InputBounds} while reading, naming the limit. */
class EventCodecBoundsTest {
    private final EventCodec codec = new EventCodec();

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void hugeExponentsAreRefusedNamingWhere() {
        assertThatThrownBy(() -> codec.parse(utf8("{\"arguments\":{\"x\":[1, 2e999999999]}}")))
                .isInstanceOf(InputBounds.OutOfBoundsException.class).hasMessageContaining("/arguments/x/1");
        assertThatThrownBy(() -> codec.parse(utf8("{\"x\": 3e-401}")))
                .isInstanceOf(InputBounds.OutOfBoundsException.class);
        assertThat(codec.parse(utf8("{\"x\": 1.5e300}")).path("x").isNumber()).isTrue();
    }

    @Test
    void deepNestingLongNumbersAndTrailingTokensAreRefused() {
        String deep = "[".repeat(InputBounds.MAX_DEPTH + 1) + "]".repeat(InputBounds.MAX_DEPTH + 1);
        assertThatThrownBy(() -> codec.parse(utf8(deep))).isInstanceOf(InputBounds.OutOfBoundsException.class);
        String digits = "1".repeat(InputBounds.MAX_NUMBER_CHARS + 1);
        assertThatThrownBy(() -> codec.parse(utf8("{\"x\":" + digits + "}")))
                .isInstanceOf(InputBounds.OutOfBoundsException.class);
        assertThatThrownBy(() -> codec.parse(utf8("{} {}"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> codec.parse(utf8(""))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void storedTextIsMadeSafe() {
        assertThat(InputBounds.identifier("a\u0000b\nc", 10)).isEqualTo("a\uFFFDb\uFFFDc");
        assertThat(InputBounds.text("line\nnul\u0000", 100)).isEqualTo("line\nnul\uFFFD");
        assertThat(InputBounds.identifier("abcdef", 3)).isEqualTo("abc");
        assertThat(InputBounds.hasControl("plain")).isFalse();
        assertThat(InputBounds.hasControl("tab\t")).isTrue();
    }
}
