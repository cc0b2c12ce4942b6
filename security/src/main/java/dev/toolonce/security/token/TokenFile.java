package dev.toolonce.security.token;

import dev.toolonce.schemas.io.EntryFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The token file: one {@link TokenEntry} per line. A service reads it again when it changes (an {@link EntryFile}),
 * so a token created or revoked with {@code ./toolonce tokens} counts within a second, without a restart. A malformed
 * line is reported and grants nothing; a missing file means no token is valid.
 */
public final class TokenFile {
    static final EntryFile.Format<TokenEntry> FORMAT = new EntryFile.Format<>() {
        @Override
        public TokenEntry parse(String line) {
            return TokenEntry.parse(line);
        }

        @Override
        public String line(TokenEntry entry) {
            return entry.line();
        }

        @Override
        public List<String> header() {
            return List.of("# ToolOnce API tokens: id:sha256(secret):roles:tenants:name. No secret is stored here.",
                    "# Managed by ./toolonce tokens create | list | revoke.");
        }
    };

    private final EntryFile<TokenEntry> file;

    public TokenFile(Path path) {
        this.file = new EntryFile<>(path, FORMAT, entries -> entries.stream()
                .collect(Collectors.toUnmodifiableMap(TokenEntry::id, Function.identity(), (a, b) -> a)));
    }

    public Path path() {
        return file.path();
    }

    /** @return the entry of {@code token} if its id is in the file and its secret matches, else empty */
    public Optional<TokenEntry> verify(ApiToken token) {
        TokenEntry e = entries().get(token.id());
        return e != null && token.matches(e.secretHash()) ? Optional.of(e) : Optional.empty();
    }

    /** @return every entry, by id, as the file holds them now */
    public Map<String, TokenEntry> entries() {
        return file.current();
    }

    /** Reads every well-formed entry of {@code path}; malformed lines are reported (by line number) and skipped. */
    static List<TokenEntry> read(Path path) throws IOException {
        return EntryFile.read(path, FORMAT);
    }

    /** Adds an entry to the file at {@code path} (created if missing). */
    public static void add(Path path, TokenEntry entry) throws IOException {
        EntryFile.add(path, FORMAT, entry, e -> e.id().equals(entry.id()));
    }

    /** Removes the entry with this id. @return whether there was one */
    public static boolean revoke(Path path, String id) throws IOException {
        return EntryFile.remove(path, FORMAT, e -> e.id().equals(id));
    }
}
