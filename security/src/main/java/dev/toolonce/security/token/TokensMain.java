package dev.toolonce.security.token;

import dev.toolonce.security.Role;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code ./toolonce tokens}: creates, lists and revokes API tokens in a token file. {@code create} prints the token
 * once, on standard output and nowhere else; the file keeps only its hash. Exit codes: 0 done, 1 refused (unknown
 * id), 2 usage.
 */
public final class TokensMain {
    static final String USAGE = """
            usage: tokens create --file FILE --role ROLE [--role ROLE]... --tenant TENANT [--tenant TENANT]... [--name NAME]
                   tokens list --file FILE
                   tokens revoke --file FILE ID
              ROLE: viewer, operator, admin, scrape; TENANT: a tenant id, or '*' for every tenant
            """;

    private TokensMain() {
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
            Set<Role> roles = new LinkedHashSet<>();
            Set<String> tenants = new LinkedHashSet<>();
            String name = null;
            List<String> rest = new ArrayList<>();
            for (int i = 1; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--file" -> file = Path.of(value(args, ++i, a));
                    case "--role" -> roles.add(Role.parse(value(args, ++i, a)));
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
                    ApiToken token = ApiToken.generate();
                    String who = name != null ? name : roles.stream().map(r -> r.name().toLowerCase(Locale.ROOT))
                            .sorted().collect(Collectors.joining("-")) + "-" + token.id();
                    TokenFile.add(file, new TokenEntry(token.id(), token.secretHash(), roles, tenants, who));
                    System.out.println(token);
                    System.err.println("created token " + token.id() + " for " + who + " (shown once: keep it now)");
                    return 0;
                }
                case "list" -> {
                    System.out.printf("%-12s  %-24s  %-24s  %s%n", "ID", "ROLES", "TENANTS", "NAME");
                    for (TokenEntry e : TokenFile.read(file)) {
                        System.out.printf("%-12s  %-24s  %-24s  %s%n", e.id(), csv(e.roles()), String.join(",", e.tenants()),
                                e.name());
                    }
                    return 0;
                }
                case "revoke" -> {
                    if (rest.size() != 1) {
                        throw new IllegalArgumentException("revoke takes one token id");
                    }
                    if (!TokenFile.revoke(file, rest.get(0))) {
                        System.err.println("no token " + rest.get(0) + " in " + file);
                        return 1;
                    }
                    System.err.println("revoked " + rest.get(0));
                    return 0;
                }
                default -> throw new IllegalArgumentException("unknown command " + command);
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(USAGE);
            return 2;
        } catch (Exception e) {
            System.err.println("tokens: " + e.getMessage());
            return 1;
        }
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }

    private static String csv(Set<Role> roles) {
        return roles.stream().map(r -> r.name().toLowerCase(Locale.ROOT)).sorted().collect(Collectors.joining(","));
    }
}
