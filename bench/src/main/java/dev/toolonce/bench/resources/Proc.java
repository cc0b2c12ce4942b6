package dev.toolonce.bench.resources;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads what Linux reports of a process under {@code /proc}: CPU clock ticks from {@code stat}, resident
 * set sizes from {@code status}. A process that is gone reads as zero (it may exit between two samples).
 */
final class Proc {
    private Proc() {
    }

    /** {@code utime + stime} of the process itself, in clock ticks. */
    static long ownTicks(long pid) {
        String[] f = statFields(pid);
        return f == null ? 0 : Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** {@code cutime + cstime}: ticks of children the process has waited for (for the postmaster: exited backends). */
    static long reapedChildTicks(long pid) {
        String[] f = statFields(pid);
        return f == null ? 0 : Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }

    /** Start time after boot in clock ticks, or -1 when the process is gone: with the PID, names one process for good. */
    static long startTicks(long pid) {
        String[] f = statFields(pid);
        return f == null ? -1 : Long.parseLong(f[19]);
    }

    /** Parent PID, or -1 when the process is gone. */
    static long ppid(long pid) {
        String[] f = statFields(pid);
        return f == null ? -1 : Long.parseLong(f[1]);
    }

    /** {@code VmRSS} in KiB. */
    static long rssKiB(long pid) {
        return statusKiB(pid, "VmRSS:");
    }

    /** {@code VmHWM} (peak resident set over the process's life) in KiB. */
    static long hwmKiB(long pid) {
        return statusKiB(pid, "VmHWM:");
    }

    /** Whether the process is a PostgreSQL walsender (its command line as PostgreSQL sets it). */
    static boolean isWalsender(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")))
                    .startsWith("postgres: walsender");
        } catch (IOException e) {
            return false;
        }
    }

    static boolean alive(long pid) {
        return Files.exists(Path.of("/proc", Long.toString(pid)));
    }

    /** Every live process whose parent is {@code pid}. */
    static List<Long> children(long pid) {
        List<Long> children = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            entries.map(p -> p.getFileName().toString()).filter(n -> n.chars().allMatch(Character::isDigit))
                    .map(Long::parseLong).filter(child -> ppid(child) == pid).forEach(children::add);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot list /proc", e);
        }
        return children;
    }

    /**
     * The fields of {@code /proc/<pid>/stat} after the command name (which may hold spaces and parentheses):
     * index 0 is the state, 1 the parent PID, 11/12 utime/stime, 13/14 cutime/cstime, 19 starttime.
     */
    private static String[] statFields(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        } catch (IOException e) {
            return null;
        }
    }

    private static long statusKiB(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException e) {
            // gone
        }
        return 0;
    }

    /** Clock ticks per second ({@code getconf CLK_TCK}); 100 when it cannot be asked. */
    static long clockTicksPerSecond() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? Long.parseLong(out) : 100;
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
