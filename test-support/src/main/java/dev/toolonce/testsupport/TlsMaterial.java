package dev.toolonce.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * TLS material for a test broker, made with the JDK's own {@code keytool} (no other tool, no fixed files): a CA, a
 * broker key pair whose certificate the CA signs for {@code IP:127.0.0.1} and {@code DNS:localhost}, the broker's
 * PKCS12 keystore (key and chain) and a PKCS12 truststore holding the CA only, each with a random password. Passwords
 * reach keytool through its environment ({@code -storepass:env}), never its command line.
 *
 * @param keystore           the broker's keystore (key password = store password)
 * @param keystorePassword   its password
 * @param truststore         the clients' (and the broker's) truststore: the CA certificate
 * @param truststorePassword its password
 */
public record TlsMaterial(Path keystore, String keystorePassword, Path truststore, String truststorePassword) {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String VALIDITY_DAYS = "2";
    private static final String KEY = "TOOLONCE_KEYSTORE_PASSWORD";
    private static final String TRUST = "TOOLONCE_TRUSTSTORE_PASSWORD";
    private static final String CA = "TOOLONCE_CA_PASSWORD";

    /**
     * Generates the material in {@code dir} (created if missing): {@code ca.p12}, {@code broker.p12},
     * {@code truststore.p12} and the PEM files between them.
     *
     * @throws IllegalStateException if keytool fails (the message holds its output)
     */
    public static TlsMaterial generate(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        Keytool k = new Keytool(dir, randomSecret(), randomSecret(), randomSecret());
        k.run("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=ToolOnce test CA",
                "-ext", "bc:c", "-validity", VALIDITY_DAYS, "-storetype", "PKCS12", "-keystore", "ca.p12",
                "-storepass:env", CA);
        k.run("-exportcert", "-alias", "ca", "-rfc", "-file", "ca.pem", "-keystore", "ca.p12", "-storepass:env", CA);
        k.run("-genkeypair", "-alias", "broker", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-validity", VALIDITY_DAYS, "-storetype", "PKCS12", "-keystore", "broker.p12", "-storepass:env", KEY);
        k.run("-certreq", "-alias", "broker", "-file", "broker.csr", "-keystore", "broker.p12", "-storepass:env", KEY);
        k.run("-gencert", "-alias", "ca", "-infile", "broker.csr", "-outfile", "broker.pem", "-rfc",
                "-validity", VALIDITY_DAYS, "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-ext", "KU=digitalSignature",
                "-ext", "EKU=serverAuth,clientAuth", "-keystore", "ca.p12", "-storepass:env", CA);
        // the CA first, so that keytool can build the chain of the signed reply
        k.run("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "broker.p12",
                "-storepass:env", KEY);
        k.run("-importcert", "-noprompt", "-alias", "broker", "-file", "broker.pem", "-keystore", "broker.p12",
                "-storepass:env", KEY);
        k.run("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-storetype", "PKCS12",
                "-keystore", "truststore.p12", "-storepass:env", TRUST);
        return new TlsMaterial(dir.resolve("broker.p12"), k.keyPassword, dir.resolve("truststore.p12"), k.trustPassword);
    }

    /** @return 32 random hex digits: safe inside JAAS quotes and keytool's and Kafka's option syntax */
    static String randomSecret() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    @Override
    public String toString() {
        return "TlsMaterial[keystore=" + keystore + ", truststore=" + truststore + "]"; // no passwords
    }

    private record Keytool(Path dir, String keyPassword, String trustPassword, String caPassword) {
        void run(String... args) {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
            command.addAll(List.of(args));
            Path log = dir.resolve("keytool.log");
            try {
                ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
                pb.environment().put(KEY, keyPassword);
                pb.environment().put(TRUST, trustPassword);
                pb.environment().put(CA, caPassword);
                Process p = pb.start();
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("keytool " + args[0] + " did not finish within 60 s");
                }
                if (p.exitValue() != 0) {
                    throw new IllegalStateException("keytool " + String.join(" ", args) + " failed with exit code "
                            + p.exitValue() + ":\n" + LogFiles.tail(log, 20));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot run keytool", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running keytool", e);
            }
        }
    }
}
