package io.quire.node.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.quire.journal.codec.Json;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * Content identity: type, canonical text and references, hashed; with a data contract, the
 * contract too (Confluent's content hash covers metadata and rule set, so the same schema under
 * another contract is another id).
 */
public final class Fingerprints {

    private Fingerprints() {
    }

    public static Fingerprint of(SchemaType type, String canonical, List<SchemaReference> references) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(type.name().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(canonical.getBytes(StandardCharsets.UTF_8));
            for (SchemaReference r : references) {
                sha.update((byte) 0);
                sha.update((r.name() + "\u0001" + r.subject() + "\u0001" + r.version()).getBytes(StandardCharsets.UTF_8));
            }
            return Fingerprint.ofDigest(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The identity of a schema's content under a data contract: the schema's own fingerprint when
     * there is none (so schemas registered before contracts keep their ids), else that fingerprint
     * with the contract's JSON (sorted, so equal contracts hash the same; an empty metadata differs
     * from none, as in Confluent).
     */
    public static Fingerprint withContract(Fingerprint fingerprint, Metadata metadata, RuleSet ruleSet) {
        if (metadata == null && ruleSet == null) {
            return fingerprint;
        }
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(fingerprint.text().getBytes(StandardCharsets.US_ASCII)); // the hex, as it always was
            sha.update((byte) 2);
            if (metadata != null) {
                sha.update((byte) 1);
                sha.update(Json.MAPPER.writeValueAsBytes(metadata));
            }
            sha.update((byte) 3);
            if (ruleSet != null) {
                sha.update((byte) 1);
                sha.update(Json.MAPPER.writeValueAsBytes(ruleSet));
            }
            return Fingerprint.ofDigest(sha.digest());
        } catch (NoSuchAlgorithmException | JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
