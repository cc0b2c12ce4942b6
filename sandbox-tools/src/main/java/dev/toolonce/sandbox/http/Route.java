package dev.toolonce.sandbox.http;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A method and a path template such as {@code /tickets/{id}/cancel}, bound to an endpoint.
 */
record Route(String method, List<String> segments, Endpoint endpoint) {

    static Route of(String method, String template, Endpoint endpoint) {
        return new Route(method, split(template), endpoint);
    }

    /** @return the path parameters when {@code path} fits the template */
    Optional<Map<String, String>> match(String path) {
        List<String> actual = split(path);
        if (actual.size() != segments.size()) {
            return Optional.empty();
        }
        Map<String, String> params = new HashMap<>();
        for (int i = 0; i < segments.size(); i++) {
            String expected = segments.get(i);
            if (expected.startsWith("{") && expected.endsWith("}")) {
                params.put(expected.substring(1, expected.length() - 1), actual.get(i));
            } else if (!expected.equals(actual.get(i))) {
                return Optional.empty();
            }
        }
        return Optional.of(params);
    }

    private static List<String> split(String path) {
        String trimmed = path.replaceAll("^/+|/+$", "");
        return trimmed.isEmpty() ? List.of() : List.of(trimmed.split("/+"));
    }
}
