package dev.toolonce.schemas.signing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code ./toolonce keys}: creates, lists and removes signing keys in a keyring (docs/security.md §6b). {@code create}
 * adds the key to the keyring and prints its line once on standard output, for the keyring of the process that signs
 * with it (an agent's); {@code list} never shows a secret. Exit codes: 0 done, 1 refused (unknown id), 2 usage.
 */
public final class KeysMain {
    static final String USAGE = """
            usage: keys create --file FILE --power POWER [--power POWER]... --tenant TENANT [--tenant TENANT]... --name NAME
                   keys list --file FILE
                   keys remove --file FILE KID
              POWER: intent, compensate, task (an agent's), result (the executor's); TENANT: a tenant id, or '*'
            """;

    private KeysMain() {
    }

    public static void main(String[] args) {
        System.exit(run(List.of(args)));
    }

    static int run(List<String> args) {
        try {
            if (args.isEmpty()) {
                throw new IllegalArgumentException("no command");
            }
            String command = args.get(0);
            Path file = null;
            Set<Power> powers = EnumSet.noneOf(Power.class);
            Set<String> tenants = new LinkedHashSet<>();
            String name = null;
            List<String> rest = new ArrayList<>();
            for (int i = 1; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--file" -> file = Path.of(value(args, ++i, a));
                    case "--power" -> powers.add(Power.parse(value(args, ++i, a)));
                    case "--tenant" -> tenants.add(value(args, ++i, a));
                    case "--name" -> name = value(args, ++i, a);
                    default -> rest.add(a);
                }
            }
            if (file == null) {
                throw new IllegalArgumentException("--file is required");
            }
            switch (command) {
                case "create" -> {
                    if (name == null) {
                        throw new IllegalArgumentException("--name is required: it names the source in logs and dead letters");
                    }
                    SigningKey key = SigningKey.generate(powers, tenants, name);
                    Keyring.add(file, key);
                    System.out.println(key.line());
                    System.err.println("created key " + key.kid() + " for " + name + " in " + file
                            + " (its line, with the secret, is shown once: put it in the signer's keyring now)");
                    return 0;
                }
                case "list" -> {
                    System.out.printf("%-14s  %-28s  %-24s  %s%n", "KID", "POWERS", "TENANTS", "NAME");
                    for (SigningKey k : Keyring.read(file)) {
                        System.out.printf("%-14s  %-28s  %-24s  %s%n", k.kid(),
                                k.powers().stream().sorted().map(Power::label).collect(Collectors.joining(",")),
                                String.join(",", k.tenants()), k.name());
                    }
                    return 0;
                }
                case "remove" -> {
                    if (rest.size() != 1) {
                        throw new IllegalArgumentException("remove takes one key id");
                    }
                    if (!Keyring.remove(file, rest.get(0))) {
                        System.err.println("no key " + rest.get(0) + " in " + file);
                        return 1;
                    }
                    System.err.println("removed " + rest.get(0) + ": records it signed are refused from now on");
                    return 0;
                }
                default -> throw new IllegalArgumentException("unknown command " + command);
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(USAGE);
            return 2;
        } catch (Exception e) {
            System.err.println("keys: " + e.getMessage());
            return 1;
        }
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }
}
