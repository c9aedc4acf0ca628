package io.quire.node.confluent;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.node.confluent.LogRecord.SchemaRecord;
import io.quire.node.confluent.LogRecord.SchemaValue;
import java.io.IOException;
import java.util.List;

/**
 * The SCHEMA records of Confluent's log in their plain form (nearly all of them: no references, no
 * data contract), read in one streaming pass each for key and value instead of through two JSON
 * trees: a follower catching up reads one per source record. Anything else, or anything it is not
 * sure of (a field twice, a number written as text, references, metadata or rules, a key of another
 * type), it leaves to {@link ConfluentLogCodec}'s tree, which decides and words any refusal; where
 * it reads a record, the record is the one the tree gives (ConfluentLogCodecTest compares them).
 */
final class PlainSchemaRecords {

    private PlainSchemaRecords() {
    }

    /** The record of these bytes, or null when they are not a plain SCHEMA record. Never throws. */
    static SchemaRecord read(byte[] key, byte[] value) {
        try {
            Key k = key(key);
            if (k == null) {
                return null;
            }
            if (value == null) {
                return new SchemaRecord(k.subject, k.version, null);
            }
            SchemaValue v = value(value);
            return v == null ? null : new SchemaRecord(k.subject, k.version, v);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private record Key(Subject subject, Version version) {
    }

    private static Key key(byte[] bytes) throws IOException {
        try (JsonParser p = ConfluentLogCodec.JSON.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String keytype = null;
            String subject = null;
            int version = -1;
            int seen = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                int bit = switch (name) {
                    case "keytype" -> t == JsonToken.VALUE_STRING && (keytype = p.getText()) != null ? 1 : 0;
                    case "subject" -> t == JsonToken.VALUE_STRING && (subject = p.getText()) != null ? 2 : 0;
                    case "version" -> isInt(p, t) && (version = p.getIntValue()) >= 1 ? 4 : 0;
                    default -> {
                        p.skipChildren();
                        yield 8;
                    }
                };
                if (bit == 0 || bit != 8 && (seen & bit) != 0) {
                    return null;
                }
                seen |= bit;
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null || (seen & 7) != 7
                    || !"SCHEMA".equals(keytype)) {
                return null;
            }
            String name = subject.startsWith(":.:") ? subject.substring(3) : subject;
            return name.isEmpty() ? null : new Key(Subject.of(name), Version.of(version));
        }
    }

    private static SchemaValue value(byte[] bytes) throws IOException {
        try (JsonParser p = ConfluentLogCodec.JSON.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            int id = 0;
            String schema = null;
            String schemaType = null;
            boolean deleted = false;
            int seen = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                int bit = switch (name) {
                    case "id" -> {
                        if (!isInt(p, t)) {
                            yield 0;
                        }
                        id = p.getIntValue();
                        yield 1;
                    }
                    case "schema" -> t == JsonToken.VALUE_STRING && (schema = p.getText()) != null ? 2 : 0;
                    case "schemaType" -> {
                        if (t != JsonToken.VALUE_STRING && t != JsonToken.VALUE_NULL) {
                            yield 0;
                        }
                        schemaType = t == JsonToken.VALUE_NULL ? null : p.getText();
                        yield 4;
                    }
                    case "references" -> t == JsonToken.VALUE_NULL
                            || t == JsonToken.START_ARRAY && p.nextToken() == JsonToken.END_ARRAY ? 8 : 0;
                    case "metadata" -> t == JsonToken.VALUE_NULL ? 16 : 0;
                    case "ruleSet" -> t == JsonToken.VALUE_NULL ? 32 : 0;
                    case "deleted" -> {
                        if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
                            yield 0;
                        }
                        deleted = t == JsonToken.VALUE_TRUE;
                        yield 64;
                    }
                    default -> {
                        p.skipChildren();
                        yield 128;
                    }
                };
                if (bit == 0 || bit != 128 && (seen & bit) != 0) {
                    return null;
                }
                seen |= bit;
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null || (seen & 3) != 3) {
                return null;
            }
            return new SchemaValue(id, schemaType, schema, List.of(), null, null, deleted);
        }
    }

    private static boolean isInt(JsonParser p, JsonToken t) throws IOException {
        return t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT;
    }
}
