package dev.toolonce.executor.adapter;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;

/**
 * A text with placeholders, parsed once at start-up: {@code {providerKey}}, {@code {externalId}} (only
 * where allowed) and {@code {arg./json/pointer}} (a value of the intent's arguments). Any other brace is an
 * error. Rendering is a pure function of the template and the {@link Values}: the same call renders to
 * the same bytes every time.
 */
final class Template {
    static final String PROVIDER_KEY = "providerKey";
    static final String EXTERNAL_ID = "externalId";
    private static final String ARG = "arg.";

    /** A literal run of text or one placeholder; {@code inPath}: before any '?' of a URL template. */
    private record Part(String literal, String placeholder, JsonPointer pointer, boolean inPath) {
        Part(String literal, String placeholder, JsonPointer pointer) {
            this(literal, placeholder, pointer, false);
        }

        Part inPath(boolean path) {
            return new Part(literal, placeholder, pointer, path);
        }
    }

    private final String source;
    private final List<Part> parts;

    private Template(String source, List<Part> parts) {
        this.source = source;
        this.parts = parts;
    }

    /**
     * @param allowExternalId whether {@code {externalId}} may appear (compensation requests only)
     * @throws IllegalArgumentException saying what is wrong with the template
     */
    static Template parse(String source, boolean allowExternalId) {
        if (source == null) {
            throw new IllegalArgumentException("is missing");
        }
        List<Part> parts = new ArrayList<>();
        int i = 0;
        while (i < source.length()) {
            int open = source.indexOf('{', i);
            int close = source.indexOf('}', i);
            if (close >= 0 && (open < 0 || close < open)) {
                throw new IllegalArgumentException("has an unmatched '}' at " + close + " in \"" + source + "\"");
            }
            if (open < 0) {
                parts.add(new Part(source.substring(i), null, null));
                break;
            }
            if (open > i) {
                parts.add(new Part(source.substring(i, open), null, null));
            }
            int end = source.indexOf('}', open);
            int nested = source.indexOf('{', open + 1);
            if (end < 0 || (nested >= 0 && nested < end)) {
                throw new IllegalArgumentException("has an unclosed '{' at " + open + " in \"" + source + "\"");
            }
            parts.add(placeholder(source.substring(open + 1, end), allowExternalId, source));
            i = end + 1;
        }
        return new Template(source, markPath(parts));
    }

    /** Marks every part that comes before the first '?' of the text: the path, when rendered as a URL. */
    private static List<Part> markPath(List<Part> parts) {
        List<Part> marked = new ArrayList<>();
        boolean inPath = true;
        for (Part p : parts) {
            marked.add(p.inPath(inPath));
            if (p.literal() != null && p.literal().indexOf('?') >= 0) {
                inPath = false;
            }
        }
        return List.copyOf(marked);
    }

    private static Part placeholder(String name, boolean allowExternalId, String source) {
        if (PROVIDER_KEY.equals(name) || (allowExternalId && EXTERNAL_ID.equals(name))) {
            return new Part(null, name, null);
        }
        if (name.startsWith(ARG + "/")) {
            try {
                return new Part(null, name, JsonPointer.compile(name.substring(ARG.length())));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("has a bad JSON pointer in {" + name + "}");
            }
        }
        throw new IllegalArgumentException("has an unknown placeholder {" + name + "} in \"" + source
                + "\"; use {providerKey}" + (allowExternalId ? ", {externalId}" : "") + " or {arg./json/pointer}");
    }

    /** Whether the template uses {@code {name}}. */
    boolean uses(String name) {
        return parts.stream().anyMatch(p -> name.equals(p.placeholder()));
    }

    /** True when the whole template is one argument placeholder (its JSON type is kept in a body). */
    boolean isSingleArgument() {
        return parts.size() == 1 && parts.get(0).pointer() != null;
    }

    /** The argument a single-argument template names. @throws MissingArgumentException when absent */
    JsonNode argument(Values values) {
        return values.argument(parts.get(0).pointer(), parts.get(0).placeholder());
    }

    /** Renders as plain text (bodies). */
    String render(Values values) {
        return render(values, UnaryOperator.identity());
    }

    /**
     * Renders with every substituted value URL-encoded (paths and queries). A value put into the path must
     * stay one path segment: empty, {@code .}, {@code ..}, or containing {@code /} or {@code \\} — also once
     * percent-decoded, as a server or proxy in front of the tool may decode it — is refused, so an argument or
     * a tool-supplied external id can never make the request reach another resource.
     *
     * @throws UnsafePathValueException for such a value; nothing is sent
     */
    String renderUrl(Values values) {
        return render(values, (p, v) -> {
            if (p.inPath()) {
                requireOneSegment(p.placeholder(), v);
            }
            return URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20");
        });
    }

    private String render(Values values, UnaryOperator<String> encode) {
        return render(values, (p, v) -> encode.apply(v));
    }

    private String render(Values values, java.util.function.BiFunction<Part, String, String> encode) {
        StringBuilder out = new StringBuilder();
        for (Part p : parts) {
            if (p.literal() != null) {
                out.append(p.literal());
            } else if (p.pointer() != null) {
                JsonNode n = values.argument(p.pointer(), p.placeholder());
                out.append(encode.apply(p, n.isValueNode() ? n.asString() : n.toString()));
            } else {
                out.append(encode.apply(p, values.named(p.placeholder())));
            }
        }
        return out.toString();
    }

    /** Percent-decodes up to three times; every form must be one ordinary path segment. */
    static void requireOneSegment(String placeholder, String value) {
        String v = value;
        for (int round = 0; round < 4; round++) {
            if (v.isEmpty() || v.equals(".") || v.equals("..") || v.indexOf('/') >= 0 || v.indexOf('\\') >= 0) {
                throw new UnsafePathValueException("the value of {" + placeholder + "} would change the request path"
                        + (round == 0 ? "" : " once percent-decoded") + "; it must be one path segment other than "
                        + "'.' or '..', without '/' or '\\'");
            }
            String decoded = percentDecode(v);
            if (decoded.equals(v)) {
                return;
            }
            v = decoded;
        }
        throw new UnsafePathValueException("the value of {" + placeholder + "} is percent-encoded more than three times");
    }

    /** Lenient RFC 3986 decoding: valid {@code %XX} triplets become bytes (UTF-8), anything else stays. */
    private static String percentDecode(String v) {
        if (v.indexOf('%') < 0) {
            return v;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] in = v.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < in.length; i++) {
            int hi = i + 2 < in.length && in[i] == '%' ? Character.digit(in[i + 1], 16) : -1;
            int lo = hi >= 0 ? Character.digit(in[i + 2], 16) : -1;
            if (lo >= 0) {
                out.write(hi * 16 + lo);
                i += 2;
            } else {
                out.write(in[i]);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return source;
    }

    /** What placeholders stand for in one rendering. */
    record Values(String providerKey, JsonNode arguments, String externalId, boolean sample) {
        Values(String providerKey, JsonNode arguments, String externalId) {
            this(providerKey, arguments, externalId, false);
        }

        /** Values where every placeholder has a value: checks at start-up that a template renders. */
        static Values forValidation() {
            return new Values("k".repeat(43), null, "x_1", true);
        }

        String named(String name) {
            String v = PROVIDER_KEY.equals(name) ? providerKey : externalId;
            if (v == null) {
                throw new MissingArgumentException("{" + name + "} has no value for this call");
            }
            return v;
        }

        JsonNode argument(JsonPointer pointer, String placeholder) {
            if (sample) {
                return tools.jackson.databind.node.JsonNodeFactory.instance.stringNode("sample value");
            }
            JsonNode n = arguments == null ? null : arguments.at(pointer);
            if (n == null || n.isMissingNode() || n.isNull()) {
                throw new MissingArgumentException("the arguments have no value at " + pointer
                        + " (template {" + placeholder + "})");
            }
            return n;
        }
    }

    /** A call whose values cannot be rendered: it is refused before anything is sent. */
    static class UnusableArgumentException extends RuntimeException {
        UnusableArgumentException(String message) {
            super(message);
        }
    }

    /** A call whose arguments lack what the template needs. */
    static final class MissingArgumentException extends UnusableArgumentException {
        MissingArgumentException(String message) {
            super(message);
        }
    }

    /** A value that would leave its path segment ({@code ..}, {@code /}, ...). */
    static final class UnsafePathValueException extends UnusableArgumentException {
        UnsafePathValueException(String message) {
            super(message);
        }
    }
}
