package dev.toolonce.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import org.springframework.core.io.Resource;

/** Reads an RSA public key in PEM ({@code -----BEGIN PUBLIC KEY-----}, X.509 SubjectPublicKeyInfo). */
final class PemKeys {
    private PemKeys() {
    }

    /** @throws IllegalArgumentException naming {@code toolonce.security.jwt.public-key-location} when unreadable */
    static RSAPublicKey rsaPublicKey(Resource pem) {
        try (InputStream in = pem.getInputStream()) {
            String text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            String base64 = text.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
            return (RSAPublicKey) KeyFactory.getInstance("RSA")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (IOException e) {
            throw new UncheckedIOException("toolonce.security.jwt.public-key-location: cannot read " + pem, e);
        } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException e) {
            throw new IllegalArgumentException("toolonce.security.jwt.public-key-location: " + pem
                    + " is not an RSA public key in PEM", e);
        }
    }
}
