package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, point 3: under {@code set -o pipefail}, a pipe into a reader that stops early — {@code grep -q},
 * {@code grep -m}, {@code head}, {@code sed …q} — fails whenever the reader exits before the writer has written
 * everything (the writer dies of SIGPIPE), so {@code status | grep -q ' stopped'} is sometimes false although a line
 * matched. This lint reads every shell script of the repository and refuses such a pipe; read the output whole
 * first ({@code out="$(cmd)"; [[ $out == *x* ]]}) or feed the reader a here-string.
 */
class ScriptPipelinesTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    /** A pipe whose last stage may exit before reading all of its input. */
    private static final Pattern EARLY_EXIT_READER = Pattern.compile(
            "\\|\\s*(grep\\s+(-[a-zA-Z]*[qm]|[^|]*\\s-[a-zA-Z]*[qm])|grep\\s+--quiet|grep\\s+--max-count|head\\b"
                    + "|sed\\s+(-n\\s+)?['\"]?[0-9]*q)");

    static List<String> findings(String name, List<String> lines) {
        List<String> found = new ArrayList<>();
        if (lines.stream().noneMatch(l -> l.contains("pipefail"))) {
            return found;
        }
        for (int i = 0; i < lines.size(); i++) {
            String code = lines.get(i).replaceFirst("^\\s*#.*", "");
            if (EARLY_EXIT_READER.matcher(code).find()) {
                found.add(name + ":" + (i + 1) + ": " + lines.get(i).trim());
            }
        }
        return found;
    }

    private static List<Path> scripts() throws IOException {
        List<Path> scripts = new ArrayList<>(List.of(ROOT.resolve("toolonce"), ROOT.resolve(".ci/run")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("deploy"))) {
            // the project's scripts: not npm's packages (deploy/k8s/test/node_modules has directories named *.sh)
            files.filter(p -> p.toString().endsWith(".sh") && Files.isRegularFile(p))
                    .filter(p -> !p.toString().contains("/node_modules/")).forEach(scripts::add);
        }
        return scripts;
    }

    @Test
    void noScriptPipesIntoAReaderThatStopsEarly() throws IOException {
        List<Path> scripts = scripts();
        assertThat(scripts).as("the stack, demo and bench scripts are read")
                .anyMatch(p -> p.endsWith("stack.sh")).anyMatch(p -> p.endsWith("bench.sh"));
        List<String> found = new ArrayList<>();
        for (Path p : scripts) {
            found.addAll(findings(ROOT.relativize(p).toString(), Files.readAllLines(p)));
        }
        assertThat(found).as("pipes into an early-exiting reader under pipefail").isEmpty();
    }

    @Test
    void theLintSeesThePatternsThatRaceAndLeavesTheSafeFormsAlone() {
        List<String> bad = List.of("set -euo pipefail",
                "\"$STACK\" status | grep -q ' stopped' || running=1",
                "  tr '\\0' ' ' <f | grep -qF -- \"$2\"",
                "ss -Hltn | grep -q .",
                "x=$(ps aux | head -1)",
                "cmd | grep --quiet foo",
                "cmd | sed -n '1q'");
        assertThat(findings("bad.sh", bad)).hasSize(6);

        List<String> safe = List.of("set -euo pipefail",
                "# \"$STACK\" status | grep -q ' stopped' in a comment",
                "status=\"$(\"$STACK\" status)\"",
                "grep -qxF \"$topic\" <<<\"$existing\" && continue",
                "value=\"$(sed -n \"s/^$var=//p\" f | tail -1)\"",
                "id=\"$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22)\"",
                "cmd | grep -v foo | sort");
        assertThat(findings("safe.sh", safe)).isEmpty();
        assertThat(findings("nopipefail.sh", List.of("status | grep -q x"))).as("without pipefail the exit is grep's")
                .isEmpty();
    }
}
