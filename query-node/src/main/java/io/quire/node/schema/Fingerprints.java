package io.quire.node.schema;

import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** Content identity: type, canonical text and references, hashed. */
public final class Fingerprints {

    private Fingerprints() {
    }

    public static String of(SchemaType type, String canonical, List<SchemaReference> references) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(type.name().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(canonical.getBytes(StandardCharsets.UTF_8));
            for (SchemaReference r : references) {
                sha.update((byte) 0);
                sha.update((r.name() + "\u0001" + r.subject() + "\u0001" + r.version()).getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
