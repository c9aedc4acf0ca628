package io.quire.node.confluent;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.quire.journal.model.Association;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Dek;
import io.quire.journal.model.Kek;
import io.quire.journal.model.Lifecycle;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Mode;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.node.confluent.LogRecord.AssociationKey;
import io.quire.node.confluent.LogRecord.AssociationRecord;
import io.quire.node.confluent.LogRecord.ClearSubjectRecord;
import io.quire.node.confluent.LogRecord.ConfigRecord;
import io.quire.node.confluent.LogRecord.ConfigValue;
import io.quire.node.confluent.LogRecord.ContextRecord;
import io.quire.node.confluent.LogRecord.DekRecord;
import io.quire.node.confluent.LogRecord.DeleteSubjectRecord;
import io.quire.node.confluent.LogRecord.KekRecord;
import io.quire.node.confluent.LogRecord.ModeRecord;
import io.quire.node.confluent.LogRecord.NoopRecord;
import io.quire.node.confluent.LogRecord.SchemaRecord;
import io.quire.node.confluent.LogRecord.SchemaValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a record of Confluent's log, key and value as Confluent's registry writes them (JSON with a
 * {@code keytype}, or a {@code type} of KEK or DEK in the DEK registry's topic), into a
 * {@link LogRecord}. A record it cannot read is an {@link Unreadable} naming why: a key type Confluent
 * does not write, a missing field, an unknown level or mode. Readers decide what to do with one
 * (the follower stops, the import counts and reports it); none of them skips one silently.
 */
public final class ConfluentLogCodec {

    static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    /** A record Quire cannot read. */
    public static final class Unreadable extends Exception {
        public Unreadable(String why) {
            super(why);
        }
    }

    private ConfluentLogCodec() {
    }

    /** The record's meaning; {@code value} null is a tombstone. */
    public static LogRecord read(byte[] key, byte[] value) throws Unreadable {
        if (key == null) {
            throw new Unreadable("a record without a key");
        }
        LogRecord plain = PlainSchemaRecords.read(key, value); // nearly every record, without trees
        return plain != null ? plain : readTree(key, value);
    }

    /** {@link #read} through JSON trees: every record Confluent writes, and the refusals' words. */
    static LogRecord readTree(byte[] key, byte[] value) throws Unreadable {
        JsonNode k;
        JsonNode v;
        try {
            k = JSON.readTree(key);
            v = value == null ? null : JSON.readTree(value);
        } catch (IOException e) {
            throw new Unreadable("not JSON: " + e.getMessage());
        }
        if (k == null || !k.isObject()) {
            throw new Unreadable("a key that is not a JSON object: " + k);
        }
        if (v != null && !v.isObject()) {
            throw new Unreadable("a value that is not a JSON object: " + v);
        }
        try {
            return read(k, v);
        } catch (IOException | IllegalArgumentException e) {
            throw new Unreadable("a " + k.path("keytype").asText(k.path("type").asText("")) + " record Quire cannot"
                    + " read: " + e.getMessage());
        }
    }

    private static LogRecord read(JsonNode key, JsonNode value) throws Unreadable, IOException {
        if (!key.path("keytype").isTextual() && key.path("type").isTextual()) {
            return key(key, value);
        }
        if (!key.path("keytype").isTextual()) {
            throw new Unreadable("a key without a keytype: " + key);
        }
        String type = key.get("keytype").asText();
        return switch (type) {
            case "SCHEMA" -> schema(key, value);
            case "CONFIG" -> new ConfigRecord(subject(key, false), value == null ? null : config(value));
            case "MODE" -> new ModeRecord(subject(key, false), value == null ? null : mode(value));
            case "DELETE_SUBJECT" -> value == null ? new NoopRecord(type)
                    : new DeleteSubjectRecord(subject(key, true), Version.of(value.path("version")
                            .asInt(Integer.MAX_VALUE)));
            case "CLEAR_SUBJECT" -> value == null ? new NoopRecord(type) : new ClearSubjectRecord(subject(key, true));
            case "ASSOC" -> association(key, value);
            case "CONTEXT" -> value == null ? new NoopRecord(type) : new ContextRecord(key.path("context").asText());
            case "NOOP" -> new NoopRecord(type);
            default -> throw new Unreadable("a key type Confluent does not write: " + type);
        };
    }

    /**
     * A subject as the key names it: the default context spelled out ({@code :.:x}) is the plain
     * subject; none (or "" for a setting) is the registry's own.
     */
    static Subject subject(JsonNode key, boolean required) throws Unreadable {
        JsonNode s = key.get("subject");
        String raw = s == null || s.isNull() ? "" : s.asText();
        String name = raw.startsWith(":.:") ? raw.substring(3) : raw;
        if (name.isEmpty()) {
            if (required) {
                throw new Unreadable("a " + key.path("keytype").asText() + " key without a subject");
            }
            return null;
        }
        return Subject.of(name);
    }

    private static SchemaRecord schema(JsonNode key, JsonNode value) throws Unreadable, IOException {
        Subject subject = subject(key, true);
        int number = key.path("version").asInt(-1);
        if (number < 1) {
            throw new Unreadable("a SCHEMA key without a version: " + key);
        }
        if (value == null) {
            return new SchemaRecord(subject, Version.of(number), null);
        }
        if (!value.path("id").canConvertToInt() || !value.path("schema").isTextual()) {
            throw new Unreadable("a SCHEMA value without an id or a schema: " + key);
        }
        List<SchemaReference> refs = new ArrayList<>();
        for (JsonNode r : value.path("references")) {
            refs.add(JSON.treeToValue(r, SchemaReference.class));
        }
        JsonNode type = value.get("schemaType");
        return new SchemaRecord(subject, Version.of(number), new SchemaValue(value.get("id").asInt(),
                type == null || type.isNull() ? null : type.asText(), value.get("schema").asText(), refs,
                object(value, "metadata", Metadata.class), object(value, "ruleSet", RuleSet.class),
                value.path("deleted").asBoolean(false)));
    }

    private static ConfigValue config(JsonNode value) throws Unreadable, IOException {
        String level = value.path("compatibilityLevel").asText(value.path("compatibility").asText(""));
        CompatibilityLevel parsed = level.isEmpty() ? null : CompatibilityLevel.parse(level)
                .orElseThrow(() -> new Unreadable("an unknown compatibility level: " + level));
        JsonNode normalize = value.get("normalize");
        return new ConfigValue(parsed, normalize == null || normalize.isNull() ? null : normalize.asBoolean(),
                JSON.treeToValue(value, ConfigFields.class));
    }

    private static Mode mode(JsonNode value) throws Unreadable {
        String mode = value.path("mode").asText("");
        try {
            return Mode.valueOf(mode);
        } catch (IllegalArgumentException e) {
            throw new Unreadable("an unknown mode: " + mode);
        }
    }

    private static AssociationRecord association(JsonNode key, JsonNode value) throws Unreadable {
        Subject subject = subject(key, true);
        AssociationKey k = new AssociationKey(key.path("resourceName").asText(), key.path("resourceNamespace").asText(),
                key.path("resourceType").asText(Association.DEFAULT_RESOURCE_TYPE),
                key.path("associationType").asText(Association.DEFAULT_ASSOCIATION_TYPE), subject);
        if (value == null) {
            return new AssociationRecord(k, null);
        }
        String lifecycle = value.path("lifecycle").asText("STRONG");
        Lifecycle parsed;
        try {
            parsed = Lifecycle.valueOf(lifecycle);
        } catch (IllegalArgumentException e) {
            throw new Unreadable("an unknown lifecycle: " + lifecycle);
        }
        return new AssociationRecord(k, new Association(subject, k.resourceName(), k.resourceNamespace(),
                value.path("resourceId").asText(), k.resourceType(), k.associationType(), parsed,
                value.path("frozen").asBoolean(false), value.path("guid").asText(null)));
    }

    /** A record of the DEK registry's topic: KEK or DEK by the key's {@code type}. */
    private static LogRecord key(JsonNode key, JsonNode value) throws Unreadable, IOException {
        String type = key.get("type").asText();
        return switch (type) {
            case "KEK" -> new KekRecord(key.path("name").asText(), value == null ? null
                    : JSON.treeToValue(value, Kek.class));
            case "DEK" -> new DekRecord(key.path("kekName").asText(), key.path("subject").asText(),
                    key.path("algorithm").asText("AES256_GCM"), key.path("version").asInt(1),
                    value == null ? null : JSON.treeToValue(value, Dek.class));
            default -> throw new Unreadable("a key type the DEK registry does not write: " + type);
        };
    }

    private static <T> T object(JsonNode value, String field, Class<T> type) throws IOException {
        JsonNode n = value.get(field);
        return n == null || !n.isObject() ? null : JSON.treeToValue(n, type);
    }
}
