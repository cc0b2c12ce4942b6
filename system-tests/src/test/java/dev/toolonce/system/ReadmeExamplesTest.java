package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 18: the README's worked example is the code {@code UserApplicationIT} builds and runs. Every fenced block of
 * the README announced by {@code <!-- file: PATH -->} must be that file, byte for byte, so a README example cannot
 * drift from code that compiles.
 */
class ReadmeExamplesTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    private static final Pattern FILE_BLOCK = Pattern.compile("<!-- file: (\\S+) -->\\n```[a-z]*\\n(.*?)```",
            Pattern.DOTALL);

    static Map<String, String> fileBlocks(String markdown) {
        Map<String, String> blocks = new LinkedHashMap<>();
        Matcher m = FILE_BLOCK.matcher(markdown);
        while (m.find()) {
            blocks.put(m.group(1), m.group(2));
        }
        return blocks;
    }

    @Test
    void everyFileBlockOfTheReadmeIsThatFile() throws IOException {
        Map<String, String> blocks = fileBlocks(Files.readString(ROOT.resolve("README.md")));

        assertThat(blocks.keySet()).as("the booking agent's code, migration and configuration are shown").contains(
                "examples/booking-agent/src/main/java/com/example/booking/BookingAgent.java",
                "examples/booking-agent/src/main/resources/db/migration/V1__booking_audit.sql",
                "examples/booking-agent/src/main/resources/application.yml");
        for (Map.Entry<String, String> b : blocks.entrySet()) {
            assertThat(b.getValue()).as("README block of " + b.getKey())
                    .isEqualTo(Files.readString(ROOT.resolve(b.getKey())));
        }
    }

    @Test
    void aBlockThatDriftedFromItsFileIsSeen() {
        Map<String, String> blocks = fileBlocks("x\n<!-- file: a/B.java -->\n```java\nclass B {}\n```\n");

        assertThat(blocks).containsExactly(Map.entry("a/B.java", "class B {}\n"));
        assertThat(blocks.get("a/B.java")).isNotEqualTo("class B { int drifted; }\n");
    }
}
