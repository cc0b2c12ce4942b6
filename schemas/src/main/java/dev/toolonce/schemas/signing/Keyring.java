package dev.toolonce.schemas.signing;

import dev.toolonce.schemas.io.EntryFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The signing keys a process holds (docs/security.md §6b), one {@link SigningKey} per line of a file that is re-read
 * when it changes, so keys are added and retired without a restart. A process signs with the <em>last</em> key in the
 * file that may sign the record (so a key appended for rotation takes over at once, while verifiers still accept the
 * older one until it is removed), and accepts a signature by any key in the file.
 *
 * <p>Give each process only the keys it needs: an agent its own key (intent, compensate, task) and the executor's
 * result key for its tenants; the executor its own result key and every agent's key.
 */
public final class Keyring {
    static final EntryFile.Format<SigningKey> FORMAT = new EntryFile.Format<>() {
        @Override
        public SigningKey parse(String line) {
            return SigningKey.parse(line);
        }

        @Override
        public String line(SigningKey key) {
            return key.line();
        }

        @Override
        public List<String> header() {
            return List.of("# ToolOnce signing keys: kid:secret:powers:tenants:name. Secrets: keep this file owner-only.",
                    "# Managed by ./toolonce keys create | list | remove.");
        }
    };

    private final EntryFile<SigningKey> file;

    private record Index(Map<String, SigningKey> byKid, List<SigningKey> inOrder) {
        static Index of(List<SigningKey> keys) {
            Map<String, SigningKey> byKid = new LinkedHashMap<>();
            keys.forEach(k -> byKid.putIfAbsent(k.kid(), k));
            return new Index(Map.copyOf(byKid), List.copyOf(keys));
        }
    }

    public Keyring(Path path) {
        this.file = new EntryFile<>(path, FORMAT, Index::of);
    }

    public Path path() {
        return file.path();
    }

    /** The property every ToolOnce process names its keyring with. */
    public static final String PROPERTY = "toolonce.signing.keyring-file";
    /** The same, as an environment variable: what the CLIs (demo, bench, fault experiment) read. */
    public static final String ENVIRONMENT = "TOOLONCE_SIGNING_KEYRINGFILE";

    /** @return the keyring {@value #ENVIRONMENT} names; see {@link #required} */
    public static Keyring fromEnvironment(java.util.Map<String, String> env, String who, Power... signs) {
        return required(env.get(ENVIRONMENT), who + " (" + ENVIRONMENT + ")", signs);
    }

    /**
     * The keyring a service starts with: there is no unsigned mode, so a service that reads or writes records refuses
     * to start without one (docs/security.md §6b).
     *
     * @param file  the value of {@value #PROPERTY}
     * @param who   the service, for the message
     * @param signs the powers the service must be able to sign with, for at least one tenant
     * @throws IllegalStateException naming the property when the file is not set, not there, or lacks a power
     */
    public static Keyring required(String file, String who, Power... signs) {
        if (file == null || file.isBlank()) {
            throw new IllegalStateException(PROPERTY + " is not set: " + who + " signs and checks every record it"
                    + " exchanges, and there is no unsigned mode (docs/security.md §6b; ./toolonce keys create)");
        }
        Path path = Path.of(file);
        if (!java.nio.file.Files.isRegularFile(path)) {
            throw new IllegalStateException(PROPERTY + "=" + file + ": no such file (" + who + ")");
        }
        Keyring keyring = new Keyring(path);
        for (Power p : signs) {
            if (keyring.keys().stream().noneMatch(k -> k.powers().contains(p))) {
                throw new IllegalStateException(PROPERTY + "=" + file + " holds no key with the power '" + p.label()
                        + "', which " + who + " signs with");
            }
        }
        return keyring;
    }

    /** @return the keys as the file holds them now, in file order */
    public List<SigningKey> keys() {
        return this.<Index>index().inOrder();
    }

    private <I> I index() {
        return file.current();
    }

    /** @return the key this process signs a record of this kind for this tenant with, if it holds one */
    public Optional<SigningKey> signer(Power power, String tenant) {
        List<SigningKey> keys = keys();
        for (int i = keys.size() - 1; i >= 0; i--) {
            if (keys.get(i).allows(power, tenant)) {
                return Optional.of(keys.get(i));
            }
        }
        return Optional.empty();
    }

    /**
     * Signs a record.
     *
     * @return the {@code toolonce-signature} header value
     * @throws IllegalStateException when no key here may sign it (naming the power, the tenant and the file)
     */
    public String sign(Power power, String tenant, String type, String messageId, byte[] value) {
        SigningKey key = signer(power, tenant).orElseThrow(() -> new IllegalStateException("no key in " + path()
                + " may sign " + power.label() + " records for tenant '" + tenant + "' (./toolonce keys create)"));
        return RecordSignature.sign(key, type, messageId, value);
    }

    /**
     * Checks a record's signature header against the keys held now.
     *
     * @param header the {@code toolonce-signature} header value, null when the record has none
     */
    public Verdict verify(String header, String type, String messageId, byte[] value) {
        if (header == null || header.isEmpty()) {
            return new Verdict.Refused(Verdict.UNSIGNED_RECORD, "the record has no toolonce-signature header");
        }
        String[] f = header.split(":", -1);
        if (f.length != 3 || !RecordSignature.VERSION.equals(f[0])) {
            return new Verdict.Refused(Verdict.BAD_SIGNATURE, "the toolonce-signature header is not v1:<kid>:<mac>");
        }
        SigningKey key = this.<Index>index().byKid().get(f[1]);
        if (key == null) {
            return new Verdict.Refused(Verdict.UNKNOWN_SIGNING_KEY, "no key '" + printable(f[1]) + "' is held here");
        }
        byte[] mac;
        try {
            mac = Base64.getUrlDecoder().decode(f[2]);
        } catch (IllegalArgumentException e) {
            return new Verdict.Refused(Verdict.BAD_SIGNATURE, "the signature is not base64url");
        }
        return RecordSignature.matches(key, mac, type, messageId, value) ? new Verdict.Signed(key)
                : new Verdict.Refused(Verdict.BAD_SIGNATURE, "the signature is not key " + key.kid() + "'s for this record");
    }

    private static String printable(String s) {
        String t = s.length() > 64 ? s.substring(0, 64) + "…" : s;
        return t.replaceAll("[^A-Za-z0-9_-]", "?");
    }

    /** Adds a key to the file at {@code path} (created if missing, owner-only). */
    public static void add(Path path, SigningKey key) throws IOException {
        EntryFile.add(path, FORMAT, key, k -> k.kid().equals(key.kid()));
    }

    /** Removes the key with this id. @return whether there was one */
    public static boolean remove(Path path, String kid) throws IOException {
        return EntryFile.remove(path, FORMAT, k -> k.kid().equals(kid));
    }

    /** Reads the keys of {@code path} (malformed lines reported and skipped). */
    public static List<SigningKey> read(Path path) throws IOException {
        return EntryFile.read(path, FORMAT);
    }
}
