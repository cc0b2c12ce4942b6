package dev.toolonce.schemas.io;

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
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A file of one entry per line ({@code #} comments and blank lines ignored) that services read and a CLI changes:
 * the API token file and the signing keyring. A reader sees a change within half a second, without a restart (it
 * looks at the modification time and size no more often than that). A malformed line is reported by number and
 * skipped; a missing file holds no entry; a file that cannot be read keeps the entries read before. Changes are written
 * to a temporary file with owner-only permissions and moved into place, under a lock, so a reader never sees half a
 * file and two writers never lose each other's change.
 *
 * @param <E> the entry type
 */
public final class EntryFile<E> {
    private static final System.Logger LOG = System.getLogger(EntryFile.class.getName());
    private static final long RECHECK_NANOS = 500_000_000L;

    /** How entries are read and written: a parser that throws {@link IllegalArgumentException}, and the line. */
    public interface Format<E> {
        E parse(String line);

        String line(E entry);

        /** @return the comment lines written at the top of the file */
        List<String> header();
    }

    private final Path path;
    private final Format<E> format;
    private final Function<List<E>, ?> index;
    private volatile Snapshot snapshot;
    private volatile long checkedAt = System.nanoTime() - RECHECK_NANOS;

    private record Snapshot(FileTime modified, long size, Object indexed) {
    }

    /**
     * @param index builds what lookups use from the entries, once per change of the file (it must accept an empty
     *     list)
     */
    public EntryFile(Path path, Format<E> format, Function<List<E>, ?> index) {
        this.path = path;
        this.format = format;
        this.index = index;
        this.snapshot = new Snapshot(null, -1, index.apply(List.of()));
    }

    public Path path() {
        return path;
    }

    /** @return the index of the entries as the file holds them now (re-read when it changed) */
    @SuppressWarnings("unchecked")
    public <I> I current() {
        long now = System.nanoTime();
        if (now - checkedAt >= RECHECK_NANOS) {
            checkedAt = now;
            try {
                FileTime modified = Files.getLastModifiedTime(path);
                long size = Files.size(path);
                Snapshot s = snapshot;
                if (!modified.equals(s.modified()) || size != s.size()) {
                    snapshot = new Snapshot(modified, size, index.apply(read(path, format)));
                }
            } catch (NoSuchFileException e) {
                snapshot = new Snapshot(null, -1, index.apply(List.of()));
            } catch (IOException | UncheckedIOException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot read " + path + ": " + e.getMessage()
                        + "; keeping the entries read before");
            }
        }
        return (I) snapshot.indexed();
    }

    /** Reads every well-formed entry of {@code path}; malformed lines are reported (by line number) and skipped. */
    public static <E> List<E> read(Path path, Format<E> format) throws IOException {
        List<E> entries = new ArrayList<>();
        List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                entries.add(format.parse(line));
            } catch (IllegalArgumentException e) {
                LOG.log(System.Logger.Level.ERROR, path + ":" + (i + 1) + " is not a valid entry, ignored: "
                        + e.getMessage());
            }
        }
        return entries;
    }

    /**
     * Adds {@code entry} to the file at {@code path} (created if missing).
     *
     * @param sameId tells an entry with the new one's id
     * @throws IllegalStateException when an entry with that id exists already
     */
    public static <E> void add(Path path, Format<E> format, E entry, Predicate<E> sameId) throws IOException {
        rewrite(path, format, entries -> {
            if (entries.stream().anyMatch(sameId)) {
                throw new IllegalStateException("an entry with this id exists already in " + path);
            }
            entries.add(entry);
            return true;
        });
    }

    /** Removes the entries {@code which} matches. @return whether there was one */
    public static <E> boolean remove(Path path, Format<E> format, Predicate<E> which) throws IOException {
        boolean[] removed = {false};
        rewrite(path, format, entries -> removed[0] = entries.removeIf(which));
        return removed[0];
    }

    private interface Change<E> {
        boolean apply(List<E> entries);
    }

    private static <E> void rewrite(Path path, Format<E> format, Change<E> change) throws IOException {
        Path dir = path.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        try (FileChannel lockFile = FileChannel.open(dir.resolve(path.getFileName() + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE); FileLock ignored = lockFile.lock()) {
            List<E> entries = Files.exists(path) ? new ArrayList<>(read(path, format)) : new ArrayList<>();
            if (!change.apply(entries)) {
                return;
            }
            Path tmp = Files.createTempFile(dir, path.getFileName().toString(), ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            List<String> lines = new ArrayList<>(format.header());
            entries.forEach(e -> lines.add(format.line(e)));
            Files.write(tmp, lines, StandardCharsets.UTF_8);
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
