package dev.toolonce.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.hash.RequestHasher;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The golden vectors in {@code src/test/resources/jcs/vectors.txt}, RFC 8785's own among them. */
class JcsVectorsTest {

    static Stream<Arguments> vectors() throws IOException {
        String text;
        try (InputStream in = JcsVectorsTest.class.getResourceAsStream("/jcs/vectors.txt")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Arguments> out = new ArrayList<>();
        String name = null;
        String input = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("name: ")) {
                name = line.substring(6);
            } else if (line.startsWith("in: ")) {
                input = line.substring(4);
            } else if (line.startsWith("out: ")) {
                out.add(Arguments.of(name, input, line.substring(5)));
            }
        }
        assertThat(out).hasSizeGreaterThanOrEqualTo(7);
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void canonicalFormMatchesTheVector(String name, String input, String expected) {
        assertThat(RequestHasher.canonicalize(input)).isEqualTo(expected);
    }
}
