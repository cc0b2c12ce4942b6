package dev.toolonce.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** {@code --json FILE}: the report's records as indented JSON (CDF points as {@code [ms, fraction]} pairs). */
public final class JsonReport {
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private JsonReport() {
    }

    public static String toJson(BenchReport report) {
        return JSON.writeValueAsString(report);
    }

    public static void write(BenchReport report, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, toJson(report));
    }
}
