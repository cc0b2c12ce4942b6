package dev.toolonce.executor.adapter;

import dev.toolonce.core.adapter.Capability;
import dev.toolonce.core.adapter.ToolAdapter;
import dev.toolonce.core.adapter.ToolDescriptor;
import dev.toolonce.core.call.DryRun;
import dev.toolonce.executor.config.ToolProperties;
import dev.toolonce.executor.config.ToolProperties.CompensationProperties;
import dev.toolonce.executor.config.ToolProperties.CredentialProperties;
import dev.toolonce.executor.config.ToolProperties.DryRunProperties;
import dev.toolonce.executor.config.ToolProperties.LookupProperties;
import dev.toolonce.executor.config.ToolProperties.OperationProperties;
import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.ObjectMapper;

/**
 * Builds one {@link HttpToolAdapter} per configured tool and refuses, naming tool and field, any
 * configuration that cannot work or cannot honour the protocol: a bad URL or body template, a capability
 * that does not exist, a lookup missing where a LOOKUP capability promises one (or present without one),
 * a lookup without found/absent statuses, NATIVE_IDEMPOTENCY without an idempotency header,
 * UNIQUE_REFERENCE without {@code {providerKey}} in the request, COMPENSATION without a compensation
 * request, an unknown status outcome, a credential (shared or a tenant's own) whose environment variable is unset
 * or whose header, variable or tenant id is not a legal name, a tenant's credential equal to the shared one, a response
 * bound outside [1 KiB, 128 KiB], a non-positive {@code max-retry-after}, or an operation named like a dry run.
 *
 * <p>An operation with a {@code dry-run} request adds the operation {@code <op>.dry-run} to the tool
 * ({@link DryRun}): its request is the dry run's, it has no lookup (it never has an effect to find) and no
 * compensation.
 */
public final class HttpAdapterFactory {
    private static final Pattern METHOD = Pattern.compile("[A-Z]{3,10}");
    /** A tenant id, as {@code CallScope} accepts it. */
    private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /** An HTTP field name (RFC 9110 token). */
    private static final Pattern HEADER = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    private static final Pattern ENV = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> TENANT_FIELDS = Set.of("env", "header", "prefix");
    /** Bodies above this could not be stored in a result event (outbox payloads are at most 1 MiB, escaped). */
    static final int MAX_RESPONSE_BYTES = 128 * 1024;

    private final Duration lease;
    private final UnaryOperator<String> environment;
    private final ObjectMapper mapper;

    /**
     * @param lease       the executor's claim lease, part of every descriptor
     * @param environment reads an environment variable (System::getenv in production); null when unset
     */
    public HttpAdapterFactory(Duration lease, UnaryOperator<String> environment, ObjectMapper mapper) {
        this.lease = lease;
        this.environment = environment;
        this.mapper = mapper;
    }

    /** @throws ToolConfigException for the first problem found, tools in name order */
    public Map<String, ToolAdapter> buildAll(Map<String, ToolProperties> tools) {
        Map<String, ToolAdapter> adapters = new LinkedHashMap<>();
        new TreeMap<>(tools).forEach((name, p) -> adapters.put(name, build(name, p)));
        return adapters;
    }

    /** @throws ToolConfigException naming the tool and the field */
    public HttpToolAdapter build(String name, ToolProperties p) {
        Set<Capability> caps = capabilities(name, p);
        String baseUrl = baseUrl(name, p);
        if (p.operations().isEmpty()) {
            throw new ToolConfigException(name, "operations", "must configure at least one operation");
        }
        String header = p.idempotencyHeader() == null || p.idempotencyHeader().isBlank() ? null : p.idempotencyHeader();
        if (caps.contains(Capability.NATIVE_IDEMPOTENCY) && header == null) {
            throw new ToolConfigException(name, "idempotency-header", "is required with NATIVE_IDEMPOTENCY");
        }
        Map<String, HttpToolAdapter.OperationSpec> ops = new HashMap<>();
        new TreeMap<>(p.operations()).forEach((op, o) -> ops.put(op, operation(name, op, o, caps, baseUrl)));
        new TreeMap<>(p.operations()).forEach((op, o) -> {
            if (o.dryRun() != null) {
                ops.put(DryRun.of(op), dryRun(name, "operations." + op + ".dry-run", o.dryRun(), baseUrl));
            }
        });
        if (caps.contains(Capability.COMPENSATION) && ops.values().stream().allMatch(o -> o.compensation() == null)) {
            throw new ToolConfigException(name, "operations.<op>.compensation", "is required with COMPENSATION");
        }
        ToolDescriptor descriptor;
        try {
            descriptor = new ToolDescriptor(name, ops.keySet(), caps, p.idempotencyWindow(),
                    p.connectTimeout(), p.readTimeout(), p.effectiveTotalTimeout(), lease, p.settleDelay());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage() + " (toolonce.executor.tools." + name + ")", e);
        }
        return new HttpToolAdapter(descriptor, new HttpToolAdapter.Connection(baseUrl, header, p.sandboxHeaders(),
                credentials(name, p.credentials())), classifier(name, p, caps), ops, mapper, bounds(name, p),
                java.time.Clock.systemUTC());
    }

    private static HttpToolAdapter.Bounds bounds(String name, ToolProperties p) {
        if (p.maxResponseBytes() < 1024 || p.maxResponseBytes() > MAX_RESPONSE_BYTES) {
            throw new ToolConfigException(name, "max-response-bytes", "must be between 1024 and " + MAX_RESPONSE_BYTES
                    + " (a stored result must fit a result event), was " + p.maxResponseBytes());
        }
        if (p.maxRetryAfter() == null || p.maxRetryAfter().isZero() || p.maxRetryAfter().isNegative()) {
            throw new ToolConfigException(name, "max-retry-after", "must be positive, was " + p.maxRetryAfter());
        }
        return new HttpToolAdapter.Bounds(p.maxResponseBytes(), p.maxRetryAfter());
    }

    private static Set<Capability> capabilities(String name, ToolProperties p) {
        Set<Capability> caps = EnumSet.noneOf(Capability.class);
        for (String c : p.capabilities()) {
            try {
                caps.add(Capability.parse(c));
            } catch (IllegalArgumentException e) {
                throw new ToolConfigException(name, "capabilities", "has an " + e.getMessage());
            }
        }
        return caps;
    }

    private static String baseUrl(String name, ToolProperties p) {
        String url = p.baseUrl();
        try {
            URI uri = url == null ? null : new URI(url);
            if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                    || uri.getHost() == null) {
                throw new IllegalArgumentException();
            }
        } catch (Exception e) {
            throw new ToolConfigException(name, "base-url", "must be an http(s) URL with a host, was " + url);
        }
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private HttpToolAdapter.OperationSpec operation(String name, String op, OperationProperties o,
                                                    Set<Capability> caps, String baseUrl) {
        String at = "operations." + op;
        if (DryRun.isDryRun(op)) {
            throw new ToolConfigException(name, at, "ends in '" + DryRun.SUFFIX + "', which names dry runs; declare "
                    + "the dry run as operations.<op>.dry-run instead, or rename the operation");
        }
        HttpToolAdapter.RequestSpec request = new HttpToolAdapter.RequestSpec(method(name, at, o.method()),
                path(name, at + ".path", o.path(), false, baseUrl),
                body(name, at + ".body", o.body(), false), referenceField(name, at, o),
                pointer(name, at + ".external-id-pointer", o.externalIdPointer()));
        if (caps.contains(Capability.UNIQUE_REFERENCE) && request.referenceField() == null
                && !request.path().uses(Template.PROVIDER_KEY)
                && (request.body() == null || !request.body().uses(Template.PROVIDER_KEY))) {
            throw new ToolConfigException(name, at + ".body", "must send {providerKey} as the unique reference "
                    + "(UNIQUE_REFERENCE): in the body or path template, or through reference-field");
        }
        boolean lookupPromised = caps.contains(Capability.LOOKUP_BY_KEY) || caps.contains(Capability.LOOKUP_BY_REFERENCE);
        if (lookupPromised && o.lookup() == null) {
            throw new ToolConfigException(name, at + ".lookup", "is required: the tool declares "
                    + (caps.contains(Capability.LOOKUP_BY_KEY) ? "LOOKUP_BY_KEY" : "LOOKUP_BY_REFERENCE"));
        }
        if (!lookupPromised && o.lookup() != null) {
            throw new ToolConfigException(name, "capabilities", "must declare LOOKUP_BY_KEY or LOOKUP_BY_REFERENCE "
                    + "for the lookup configured at " + at + ".lookup");
        }
        return new HttpToolAdapter.OperationSpec(request, lookup(name, at + ".lookup", o.lookup(), baseUrl),
                compensation(name, at + ".compensation", o.compensation(), caps, baseUrl));
    }

    private HttpToolAdapter.LookupSpec lookup(String name, String at, LookupProperties l, String baseUrl) {
        if (l == null) {
            return null;
        }
        Template path = path(name, at + ".path", l.path(), false, baseUrl);
        if (!path.uses(Template.PROVIDER_KEY)) {
            throw new ToolConfigException(name, at + ".path", "must ask by {providerKey}, was \"" + l.path() + "\"");
        }
        int found = status(name, at + ".found-status", l.foundStatus());
        int absent = status(name, at + ".absent-status", l.absentStatus());
        if (found == absent) {
            throw new ToolConfigException(name, at + ".absent-status", "must differ from found-status " + found);
        }
        return new HttpToolAdapter.LookupSpec(method(name, at, l.method()), path, found, absent,
                pointer(name, at + ".external-id-pointer", l.externalIdPointer()));
    }

    private HttpToolAdapter.RequestSpec compensation(String name, String at, CompensationProperties c,
                                                     Set<Capability> caps, String baseUrl) {
        if (c == null) {
            return null;
        }
        if (!caps.contains(Capability.COMPENSATION)) {
            throw new ToolConfigException(name, "capabilities", "must declare COMPENSATION for the request at " + at);
        }
        return new HttpToolAdapter.RequestSpec(method(name, at, c.method()), path(name, at + ".path", c.path(), true,
                baseUrl), body(name, at + ".body", c.body(), true), null, pointer(name, at + ".external-id-pointer",
                c.externalIdPointer()));
    }

    /** A dry run: sent like the operation (arguments as received without a body template), nothing to look up. */
    private HttpToolAdapter.OperationSpec dryRun(String name, String at, DryRunProperties d, String baseUrl) {
        HttpToolAdapter.RequestSpec request = new HttpToolAdapter.RequestSpec(method(name, at, d.method()),
                path(name, at + ".path", d.path(), false, baseUrl), body(name, at + ".body", d.body(), false), null,
                "/id");
        return new HttpToolAdapter.OperationSpec(request, null, null);
    }

    private static String referenceField(String name, String at, OperationProperties o) {
        String field = o.referenceField();
        if (field == null || field.isBlank()) {
            return null;
        }
        if (o.body() != null) {
            throw new ToolConfigException(name, at + ".reference-field", "cannot be combined with a body template; "
                    + "put \"" + field + "\": \"{providerKey}\" into the template instead");
        }
        return field;
    }

    private static String method(String name, String at, String method) {
        if (method == null || !METHOD.matcher(method).matches()) {
            throw new ToolConfigException(name, at + ".method", "must be an HTTP method in capitals, was " + method);
        }
        return method;
    }

    /** Parses the template and renders it with sample values to prove the URL it makes is valid. */
    private static Template path(String name, String at, String path, boolean allowExternalId, String baseUrl) {
        if (path == null || !path.startsWith("/")) {
            throw new ToolConfigException(name, at, "must be a path starting with '/', was " + path);
        }
        try {
            Template t = Template.parse(path, allowExternalId);
            URI.create(baseUrl + t.renderUrl(Template.Values.forValidation()));
            return t;
        } catch (IllegalArgumentException e) {
            throw new ToolConfigException(name, at, e.getMessage());
        }
    }

    private BodyTemplate body(String name, String at, String body, boolean allowExternalId) {
        if (body == null) {
            return null;
        }
        try {
            return BodyTemplate.parse(body, allowExternalId, mapper);
        } catch (IllegalArgumentException e) {
            throw new ToolConfigException(name, at, e.getMessage());
        }
    }

    private static String pointer(String name, String at, String pointer) {
        try {
            JsonPointer.compile(pointer);
            return pointer;
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new ToolConfigException(name, at, "must be a JSON pointer such as /id, was " + pointer);
        }
    }

    private static int status(String name, String at, Integer status) {
        if (status == null) {
            throw new ToolConfigException(name, at, "is required: without it a lookup cannot tell found from absent");
        }
        if (status < 100 || status > 599) {
            throw new ToolConfigException(name, at, "must be an HTTP status, was " + status);
        }
        return status;
    }

    private static StatusClassifier classifier(String name, ToolProperties p, Set<Capability> caps) {
        Map<Integer, Verdict> overrides = new HashMap<>();
        p.statuses().forEach((status, outcome) -> {
            if (status == null || status < 100 || status > 599) {
                throw new ToolConfigException(name, "statuses", "has a key that is not an HTTP status: " + status);
            }
            try {
                overrides.put(status, Verdict.parse(outcome));
            } catch (IllegalArgumentException e) {
                throw new ToolConfigException(name, "statuses." + status, "has an " + e.getMessage());
            }
        });
        return new StatusClassifier(caps.contains(Capability.NATIVE_IDEMPOTENCY), p.keyReusedMarker(), overrides);
    }

    /**
     * The shared credential and the tenants' own: every name legal, every variable set, and no tenant's credential
     * the same as the shared one (its refusal would pause one tenant while the others go on sending it).
     */
    private Credentials credentials(String name, CredentialProperties c) {
        if (c == null) {
            return Credentials.NONE;
        }
        String header = header(name, "credentials.header", c.header());
        Credential shared = new Credential(header, c.prefix(), secret(name, "credentials.env", c.env()));
        Map<String, Credential> tenants = new HashMap<>();
        tenantFields(name, c.tenants()).forEach((tenant, fields) -> {
            String at = "credentials.tenants." + tenant;
            Credential own = new Credential(
                    fields.containsKey("header") ? header(name, at + ".header", fields.get("header")) : header,
                    fields.getOrDefault("prefix", c.prefix()), secret(name, at + ".env", fields.get("env")));
            if (own.header().equalsIgnoreCase(shared.header()) && own.value().equals(shared.value())) {
                throw new ToolConfigException(name, at + ".env", "names a secret equal to the shared credential's ("
                        + c.env() + "); list a tenant only with a credential of its own");
            }
            tenants.put(tenant, own);
        });
        return new Credentials(shared, tenants);
    }

    /** {@code <tenantId>.<field>} → value, grouped by tenant; a key that is not a tenant id and a field is refused. */
    private static Map<String, Map<String, String>> tenantFields(String name, Map<String, String> flat) {
        Map<String, Map<String, String>> byTenant = new TreeMap<>();
        new TreeMap<>(flat).forEach((key, value) -> {
            int dot = key.lastIndexOf('.');
            String tenant = dot < 0 ? key : key.substring(0, dot);
            String field = dot < 0 ? "" : key.substring(dot + 1);
            if (!TENANT_FIELDS.contains(field)) {
                throw new ToolConfigException(name, "credentials.tenants." + key, "is not a tenant's credential field: "
                        + "expected credentials.tenants.<tenantId>.env, .header or .prefix");
            }
            if (!TENANT.matcher(tenant).matches()) {
                throw new ToolConfigException(name, "credentials.tenants", "has a key that is not a tenant id "
                        + "(1-64 characters of [A-Za-z0-9._-]): '" + tenant + "'");
            }
            byTenant.computeIfAbsent(tenant, t -> new HashMap<>()).put(field, value);
        });
        return byTenant;
    }

    private static String header(String name, String at, String header) {
        if (header == null || header.isBlank()) {
            throw new ToolConfigException(name, at, "is required");
        }
        if (!HEADER.matcher(header).matches()) {
            throw new ToolConfigException(name, at, "must be an HTTP header name, was '" + header + "'");
        }
        return header;
    }

    /** The secret in environment variable {@code env}; the message names the variable, never its value. */
    private String secret(String name, String at, String env) {
        if (env == null || env.isBlank()) {
            throw new ToolConfigException(name, at, "must name the environment variable of the secret");
        }
        if (!ENV.matcher(env).matches()) {
            throw new ToolConfigException(name, at, "must be an environment variable name ([A-Za-z_][A-Za-z0-9_]*), "
                    + "was '" + env + "'");
        }
        String secret = environment.apply(env);
        if (secret == null || secret.isBlank()) {
            throw new ToolConfigException(name, at, "names environment variable " + env + ", which is not set");
        }
        return secret;
    }
}
