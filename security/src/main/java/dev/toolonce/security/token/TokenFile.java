package dev.toolonce.security.token;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The token file: one {@link TokenEntry} per line, {@code #} comments and blank lines ignored. A service reads it again
 * when its modification time or size changes (looked at no more than twice a second), so a token created or revoked
 * with {@code ./toolonce tokens} counts at once, without a restart. A malformed line is reported and grants nothing;
 * a missing file means no token is valid. Changes are written to a temporary file and moved into place, under a lock,
 * with owner-only permissions.
 */
public final class TokenFile {
    private static final System.Logger LOG = System.getLogger(TokenFile.class.getName());
    private static final long RECHECK_NANOS = 500_000_000L;

    private final Path path;
    private volatile Snapshot snapshot = new Snapshot(null, -1, Map.of());
    private volatile long checkedAt = System.nanoTime() - RECHECK_NANOS;

    private record Snapshot(FileTime modified, long size, Map<String, TokenEntry> byId) {
    }

    public TokenFile(Path path) {
        this.path = path;
    }

    public Path path() {
        return path;
    }

    /** @return the entry of {@code token} if its id is in the file and its secret matches, else empty */
    public Optional<TokenEntry> verify(ApiToken token) {
        TokenEntry e = current().get(token.id());
        return e != null && token.matches(e.secretHash()) ? Optional.of(e) : Optional.empty();
    }

    /** @return every entry, by id, as the file holds them now */
    public Map<String, TokenEntry> entries() {
        return current();
    }

    private Map<String, TokenEntry> current() {
        long now = System.nanoTime();
        if (now - checkedAt >= RECHECK_NANOS) {
            checkedAt = now;
            try {
                FileTime modified = Files.getLastModifiedTime(path);
                long size = Files.size(path);
                Snapshot s = snapshot;
                if (!modified.equals(s.modified()) || size != s.size()) {
                    snapshot = new Snapshot(modified, size, read(path).stream()
                            .collect(Collectors.toUnmodifiableMap(TokenEntry::id, Function.identity(), (a, b) -> a)));
                }
            } catch (NoSuchFileException e) {
                snapshot = new Snapshot(null, -1, Map.of());
            } catch (IOException | UncheckedIOException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot read the token file " + path + ": " + e.getMessage()
                        + "; keeping the tokens read before");
            }
        }
        return snapshot.byId();
    }

    /** Reads every well-formed entry of {@code path}; malformed lines are reported (by line number) and skipped. */
    static List<TokenEntry> read(Path path) throws IOException {
        List<TokenEntry> entries = new ArrayList<>();
        List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                entries.add(TokenEntry.parse(line));
            } catch (IllegalArgumentException e) {
                LOG.log(System.Logger.Level.ERROR, path + ":" + (i + 1) + " is not a token entry, ignored: "
                        + e.getMessage());
            }
        }
        return entries;
    }

    /** Adds an entry to the file at {@code path} (created if missing). */
    public static void add(Path path, TokenEntry entry) throws IOException {
        rewrite(path, entries -> {
            if (entries.stream().anyMatch(e -> e.id().equals(entry.id()))) {
                throw new IllegalStateException("token id " + entry.id() + " exists already");
            }
            entries.add(entry);
            return true;
        });
    }

    /** Removes the entry with this id. @return whether there was one */
    public static boolean revoke(Path path, String id) throws IOException {
        boolean[] removed = {false};
        rewrite(path, entries -> removed[0] = entries.removeIf(e -> e.id().equals(id)));
        return removed[0];
    }

    private interface Change {
        boolean apply(List<TokenEntry> entries);
    }

    private static void rewrite(Path path, Change change) throws IOException {
        Path dir = path.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        try (FileChannel lockFile = FileChannel.open(dir.resolve(path.getFileName() + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE); FileLock ignored = lockFile.lock()) {
            List<TokenEntry> entries = Files.exists(path) ? new ArrayList<>(read(path)) : new ArrayList<>();
            if (!change.apply(entries)) {
                return;
            }
            Path tmp = Files.createTempFile(dir, path.getFileName().toString(), ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            List<String> lines = new ArrayList<>(List.of(
                    "# ToolOnce API tokens: id:sha256(secret):roles:tenants:name. No secret is stored here.",
                    "# Managed by ./toolonce tokens create | list | revoke."));
            entries.forEach(e -> lines.add(e.line()));
            Files.write(tmp, lines, StandardCharsets.UTF_8);
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
