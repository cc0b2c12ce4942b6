package dev.toolonce.schemas.signing;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.spec.SecretKeySpec;

/**
 * One line of a keyring: {@code kid:secret:powers:tenants:name}. The secret is 256 random bits, base64url; powers
 * and tenants are comma-separated, {@code *} for every tenant. A key signs a record only of a kind its powers name and
 * only for a tenant it lists (docs/security.md §6b).
 *
 * @param kid     the key's public id, carried in every signature it makes
 * @param powers  at least one
 * @param tenants at least one tenant id, or {@code *}
 * @param name    the source the key belongs to (an agent's, or the executor's), named in logs and dead letters
 */
public record SigningKey(String kid, SecretKeySpec secret, Set<Power> powers, Set<String> tenants, String name) {
    public static final String ALL_TENANTS = "*";
    private static final Pattern KID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** Tenant ids and names: what the ledger's identifiers allow, and nothing a line's syntax uses. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@+-]{1,128}");
    private static final SecureRandom RANDOM = new SecureRandom();

    public SigningKey {
        if (!KID.matcher(kid).matches()) {
            throw new IllegalArgumentException("key id '" + kid + "' must match " + KID.pattern());
        }
        if (secret.getEncoded().length < 32) {
            throw new IllegalArgumentException("key " + kid + ": the secret must be at least 256 bits");
        }
        if (powers.isEmpty() || tenants.isEmpty()) {
            throw new IllegalArgumentException("key " + kid + " needs at least one power and one tenant (or *)");
        }
        for (String t : tenants) {
            if (!t.equals(ALL_TENANTS) && !NAME.matcher(t).matches()) {
                throw new IllegalArgumentException("tenant '" + t + "' must match " + NAME.pattern() + " (or be *)");
            }
        }
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name '" + name + "' must match " + NAME.pattern());
        }
        powers = Set.copyOf(powers);
        tenants = Set.copyOf(tenants);
    }

    /** @return a new key with a random id ({@code k} and 12 hex digits) and a random 256-bit secret */
    public static SigningKey generate(Set<Power> powers, Set<String> tenants, String name) {
        byte[] id = new byte[6];
        byte[] secret = new byte[32];
        RANDOM.nextBytes(id);
        RANDOM.nextBytes(secret);
        return new SigningKey("k" + HexFormat.of().formatHex(id), RecordSignature.keySpec(secret), powers, tenants, name);
    }

    /** @throws IllegalArgumentException when the line is not a key */
    public static SigningKey parse(String line) {
        String[] f = line.trim().split(":", -1);
        if (f.length != 5) {
            throw new IllegalArgumentException("a key line has 5 fields (kid:secret:powers:tenants:name), this one "
                    + f.length);
        }
        byte[] secret;
        try {
            secret = Base64.getUrlDecoder().decode(f[1]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("key " + f[0] + ": the secret is not base64url");
        }
        Set<Power> powers = Arrays.stream(f[2].split(",")).map(Power::parse)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Power.class)));
        Set<String> tenants = Arrays.stream(f[3].split(",")).map(String::trim)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        return new SigningKey(f[0], RecordSignature.keySpec(secret), powers, tenants, f[4]);
    }

    /** @return this key as a line of a keyring */
    public String line() {
        return String.join(":", kid, Base64.getUrlEncoder().withoutPadding().encodeToString(secret.getEncoded()),
                powers.stream().sorted().map(Power::label).collect(Collectors.joining(",")),
                tenants.stream().sorted().collect(Collectors.joining(",")), name);
    }

    /** @return whether this key may sign a record of this kind for this tenant */
    public boolean allows(Power power, String tenant) {
        return powers.contains(power) && (tenants.contains(ALL_TENANTS) || tenants.contains(tenant));
    }

    @Override
    public String toString() {
        return "SigningKey[" + kid + " of " + name + ", " + powers + ", tenants " + tenants + "]";
    }
}
