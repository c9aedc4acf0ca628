package io.quire.journal.view;

import io.quire.journal.model.SchemaReference;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The content hash Apicurio's v3 API looks content up by ({@code /ids/contentHashes/{hash}}): the
 * hex SHA-256 of the schema text as stored; when the schema has references, each reference
 * follows the text as a line {@code name|subject|version}. Computed from the view's own text, so
 * it is the same on every node (and equals Apicurio's for the same text without references).
 */
public final class ContentHash {

    private ContentHash() {
    }

    /** One digest per thread: looking one up costs more than hashing a schema. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    public static String of(String schema, List<SchemaReference> references) {
        MessageDigest sha = SHA256.get();
        sha.reset(); // a use that threw midway left its input behind
        sha.update(schema.getBytes(StandardCharsets.UTF_8));
        if (references != null) {
            for (SchemaReference r : references) {
                sha.update(("\n" + r.name() + "|" + r.subject().name() + "|" + r.version().number()).getBytes(StandardCharsets.UTF_8));
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
