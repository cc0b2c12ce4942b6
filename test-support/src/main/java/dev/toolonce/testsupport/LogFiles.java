package dev.toolonce.testsupport;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/** Reads the end of (possibly large, still growing) log files. */
final class LogFiles {

  private static final int MAX_TAIL_BYTES = 256 * 1024;

  private LogFiles() {}

  /** @return the last {@code lines} lines of {@code file} (at most 256 KiB), or a note if unreadable */
  static String tail(Path file, int lines) {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      long length = raf.length();
      int size = (int) Math.min(length, MAX_TAIL_BYTES);
      byte[] buf = new byte[size];
      raf.seek(length - size);
      raf.readFully(buf);
      String[] all = new String(buf, StandardCharsets.UTF_8).split("\r?\n", -1);
      int end = all.length > 0 && all[all.length - 1].isEmpty() ? all.length - 1 : all.length;
      int from = Math.max(0, end - lines);
      return String.join("\n", Arrays.copyOfRange(all, from, end));
    } catch (IOException e) {
      return "(cannot read " + file + ": " + e.getMessage() + ")";
    }
  }
}
