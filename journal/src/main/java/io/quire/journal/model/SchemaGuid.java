package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A schema's GUID: the MD5 of its content shown as a UUID, computed the way Confluent computes it
 * (the schema text, each reference's name, subject and version, then the metadata and the rule set,
 * each marked as present), so the same content has the same GUID on every node and the same GUID
 * as in a Confluent registry that stores the same text. Deserializers find a schema by it from a
 * record header. On the wire it is the UUID string.
 */
public record SchemaGuid(@JsonValue UUID value) {

    @JsonCreator
    public static SchemaGuid parse(String text) {
        return new SchemaGuid(UUID.fromString(text));
    }

    /** One digest per thread: looking one up costs more than hashing a schema. */
    private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    public static SchemaGuid of(String schema, List<SchemaReference> references, Metadata metadata, RuleSet ruleSet) {
        MessageDigest md = MD5.get();
        md.reset(); // a use that threw midway left its input behind
        update(md, schema);
        for (SchemaReference r : references) {
            update(md, r.name());
            update(md, r.subject() == null ? null : r.subject().name());
            md.update(ByteBuffer.allocate(4).putInt(r.version().number()).array());
        }
        if (metadata != null) {
            md.update((byte) 1);
            metadata.tags().forEach((k, v) -> {
                update(md, k);
                v.forEach(t -> update(md, t));
            });
            metadata.properties().forEach((k, v) -> {
                update(md, k);
                update(md, v);
            });
            metadata.sensitive().forEach(s -> update(md, s));
        }
        if (ruleSet != null) {
            md.update((byte) 1);
            for (List<Rule> rules : List.of(ruleSet.migrationRules(), ruleSet.domainRules(), ruleSet.encodingRules())) {
                rules.forEach(r -> update(md, r));
            }
        }
        ByteBuffer b = ByteBuffer.wrap(md.digest());
        return new SchemaGuid(new UUID(b.getLong(), b.getLong()));
    }

    private static void update(MessageDigest md, Rule r) {
        update(md, r.name());
        update(md, r.doc());
        update(md, r.kind().name());
        update(md, r.mode().name());
        update(md, r.type());
        r.tags().forEach(t -> update(md, t));
        for (Map.Entry<String, String> p : r.params().entrySet()) {
            update(md, p.getKey());
            update(md, p.getValue());
        }
        update(md, r.expr());
        update(md, r.onSuccess());
        update(md, r.onFailure());
        if (r.disabled()) {
            md.update((byte) 1);
        }
    }

    private static void update(MessageDigest md, String s) {
        if (s != null) {
            md.update(s.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
