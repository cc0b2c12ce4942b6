package dev.toolonce.chaos.stack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a command to completion; a non-zero exit or a timeout is an exception naming the command. */
final class Shell {
    private Shell() {
    }

    static void run(List<String> command, Duration timeout) {
        run(command, Map.of(), null, timeout);
    }

    /** @param log where stdout and stderr are appended, or null to discard them */
    static void run(List<String> command, Map<String, String> env, Path log, Duration timeout) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(new File("/")).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(log == null ? ProcessBuilder.Redirect.DISCARD
                            : ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within " + timeout);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(command + " exited with " + p.exitValue()
                        + (log == null ? "" : "; see " + log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }
}
