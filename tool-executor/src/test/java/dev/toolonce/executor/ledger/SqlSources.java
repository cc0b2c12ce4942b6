package dev.toolonce.executor.ledger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The SQL text in the repository's main sources, for the tests that check who writes what
 * ({@link SqlTransitionsTest}, {@link TableOwnersTest}): every text block and every ordinary string literal of a
 * code line, with the file and the {@code static final String} constant it is assigned to ("" when it is not).
 * SQL assembled by concatenation is seen only piece by piece; the project keeps statements whole in constants.
 */
final class SqlSources {
    private static final Pattern TEXT_BLOCK = Pattern.compile("\"\"\"(.*?)\"\"\"", Pattern.DOTALL);
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern CONSTANT_BEFORE = Pattern.compile("static\\s+final\\s+String\\s+(\\w+)\\s*=\\s*$");

    /** One literal: where it is, the constant that holds it, its text. */
    record Statement(Path file, String constant, String sql) {
        /** The file's path from the repository root, with forward slashes. */
        String path() {
            return repoRoot().relativize(file).toString().replace('\\', '/');
        }
    }

    private SqlSources() {
    }

    /**
     * Literals in text blocks, then in ordinary string literals of code lines (text blocks blanked first, so that a
     * quote in a comment cannot pair with a text block's delimiter), of every {@code <module>/src/main/java} file.
     */
    static List<Statement> inMainSources() throws IOException {
        Path root = repoRoot();
        List<Statement> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> root.relativize(p).toString().replace('\\', '/').matches("[^/]+/src/main/java/.*"))
                    .toList()) {
                read(file, found);
            }
        }
        return found;
    }

    private static void read(Path file, List<Statement> found) throws IOException {
        String text = Files.readString(file);
        StringBuilder code = new StringBuilder();
        Matcher blocks = TEXT_BLOCK.matcher(text);
        int last = 0;
        while (blocks.find()) {
            code.append(text, last, blocks.start()).append("\"\"");
            last = blocks.end();
            found.add(new Statement(file, constantBefore(text, blocks.start()), blocks.group(1)));
        }
        code.append(text.substring(last));
        for (String line : code.toString().split("\n")) {
            String trimmed = line.trim();
            if (trimmed.startsWith("*") || trimmed.startsWith("//") || trimmed.startsWith("/*")) {
                continue;
            }
            Matcher strings = STRING.matcher(line);
            while (strings.find()) {
                found.add(new Statement(file, constantBefore(line, strings.start()), strings.group(1)));
            }
        }
    }

    private static String constantBefore(String text, int literalStart) {
        Matcher c = CONSTANT_BEFORE.matcher(text.substring(Math.max(0, literalStart - 200), literalStart));
        return c.find() ? c.group(1) : "";
    }

    /** The repository's root: the first directory above the working directory with the {@code toolonce} script. */
    static Path repoRoot() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (dir != null && !(Files.isRegularFile(dir.resolve("toolonce")) && Files.isDirectory(dir.resolve("core")))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new UncheckedIOException(new IOException("no repository root above " + System.getProperty("user.dir")));
        }
        return dir;
    }
}
