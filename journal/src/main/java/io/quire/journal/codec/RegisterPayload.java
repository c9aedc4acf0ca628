package io.quire.journal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectReader;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Offset;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the payload of a {@link RegisterSchema} record (nearly every record of a journal) from the
 * parser, field by field, without Jackson's data binding. It reads only the canonical form
 * ({@link JournalCodec#encode}'s: each field at most once, of the JSON type its encoder writes, no
 * field it does not know) and gives up on anything else by returning null, so that the caller falls
 * back to Jackson's binding, which decides (and words any refusal). Where it reads a payload, the
 * command is equal to what Jackson's binding gives (RegisterPayloadTest compares the two). A data
 * contract's metadata and rules are rare and nested, so they are still read by their Jackson readers.
 */
final class RegisterPayload {

    private static final ObjectReader METADATA = Json.MAPPER.readerFor(Metadata.class);
    private static final ObjectReader RULE_SET = Json.MAPPER.readerFor(RuleSet.class);

    private static final CompatibilityLevel[] LEVELS = CompatibilityLevel.values();
    private static final SchemaType[] TYPES = SchemaType.values();

    private RegisterPayload() {
    }

    /**
     * The command whose payload starts at the parser's current token (the object's start), with the
     * parser left on the object's end; null when the payload is not in the canonical form (the
     * parser is then somewhere inside it and must not be read on).
     */
    static RegisterSchema read(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            return null;
        }
        Subject subject = null;
        SchemaType schemaType = null;
        String schema = null;
        List<SchemaReference> references = null;
        String fingerprint = null;
        SchemaId proposedId = null;
        CompatibilityLevel checkedLevel = null;
        Offset checkedRevision = null;
        Metadata metadata = null;
        RuleSet ruleSet = null;
        int seen = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            boolean isNull = t == JsonToken.VALUE_NULL;
            int bit;
            switch (field) {
                case "checkedLevel" -> {
                    bit = 1;
                    if (!isNull) {
                        if (t != JsonToken.VALUE_STRING || (checkedLevel = named(LEVELS, p.getText())) == null) {
                            return null;
                        }
                    }
                }
                case "checkedRevision" -> {
                    bit = 2;
                    if (!isNull) {
                        if (!isLong(p, t)) {
                            return null;
                        }
                        checkedRevision = Offset.of(p.getLongValue());
                    }
                }
                case "fingerprint" -> {
                    bit = 4;
                    if ((fingerprint = text(p, t)) == OTHER) {
                        return null;
                    }
                }
                case "metadata" -> {
                    bit = 8;
                    if (!isNull) {
                        if (t != JsonToken.START_OBJECT) {
                            return null;
                        }
                        metadata = METADATA.readValue(p);
                    }
                }
                case "proposedId" -> {
                    bit = 16;
                    if (!isNull) {
                        if (!isLong(p, t)) {
                            return null;
                        }
                        proposedId = SchemaId.of(p.getLongValue());
                    }
                }
                case "references" -> {
                    bit = 32;
                    if (!isNull) {
                        if (t != JsonToken.START_ARRAY || (references = references(p)) == null) {
                            return null;
                        }
                    }
                }
                case "ruleSet" -> {
                    bit = 64;
                    if (!isNull) {
                        if (t != JsonToken.START_OBJECT) {
                            return null;
                        }
                        ruleSet = RULE_SET.readValue(p);
                    }
                }
                case "schema" -> {
                    bit = 128;
                    if ((schema = text(p, t)) == OTHER) {
                        return null;
                    }
                }
                case "schemaType" -> {
                    bit = 256;
                    if (!isNull) {
                        if (t != JsonToken.VALUE_STRING || (schemaType = named(TYPES, p.getText())) == null) {
                            return null;
                        }
                    }
                }
                case "subject" -> {
                    bit = 512;
                    String name = text(p, t);
                    if (name == OTHER) {
                        return null;
                    }
                    subject = name == null ? null : Subject.of(name);
                }
                default -> {
                    return null;
                }
            }
            if ((seen & bit) != 0) {
                return null;
            }
            seen |= bit;
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
            return null;
        }
        return new RegisterSchema(subject, schemaType, schema, references, fingerprint, proposedId, checkedLevel,
                checkedRevision, metadata, ruleSet);
    }

    /** The references array at the parser (on its start), left on its end; null when not canonical. */
    private static List<SchemaReference> references(JsonParser p) throws IOException {
        List<SchemaReference> out = new ArrayList<>(2);
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
            String name = null;
            Subject subject = null;
            Version version = null;
            int seen = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                int bit;
                switch (field) {
                    case "name" -> {
                        bit = 1;
                        if ((name = text(p, v)) == OTHER) {
                            return null;
                        }
                    }
                    case "subject" -> {
                        bit = 2;
                        String named = text(p, v);
                        if (named == OTHER) {
                            return null;
                        }
                        subject = named == null ? null : Subject.of(named);
                    }
                    case "version" -> {
                        bit = 4;
                        if (v != JsonToken.VALUE_NULL) {
                            if (v != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
                                return null;
                            }
                            version = Version.of(p.getIntValue());
                        }
                    }
                    default -> {
                        return null;
                    }
                }
                if ((seen & bit) != 0) {
                    return null;
                }
                seen |= bit;
            }
            if (p.currentToken() != JsonToken.END_OBJECT) {
                return null;
            }
            out.add(new SchemaReference(name, subject, version));
        }
        return t == JsonToken.END_ARRAY ? out : null;
    }

    /** Marks a value that is neither a string nor null (compared by identity, never a real value). */
    private static final String OTHER = new String("not a string");

    /** The string at the parser, null for a JSON null, {@link #OTHER} for any other token. */
    private static String text(JsonParser p, JsonToken t) throws IOException {
        return t == JsonToken.VALUE_STRING ? p.getText() : t == JsonToken.VALUE_NULL ? null : OTHER;
    }

    /** An integer that fits a long (Jackson's binding would refuse a bigger one or coerce other forms). */
    private static boolean isLong(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.VALUE_NUMBER_INT) {
            return false;
        }
        JsonParser.NumberType n = p.getNumberType();
        return n == JsonParser.NumberType.INT || n == JsonParser.NumberType.LONG;
    }

    /** The constant with exactly this name, or null (Jackson's binding then decides). */
    private static <E extends Enum<E>> E named(E[] constants, String name) {
        for (E e : constants) {
            if (e.name().equals(name)) {
                return e;
            }
        }
        return null;
    }
}
