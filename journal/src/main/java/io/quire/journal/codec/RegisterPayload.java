package io.quire.journal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectReader;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.RegisterVersions;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the payload of a {@link RegisterSchema} record (nearly every record of a journal) or of a
 * {@link RegisterVersions} record (one subject's versions, each a register payload) from the
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
        Payload r = new Payload();
        if (CanonicalJson.object(p, r) < 0) {
            return null;
        }
        return new RegisterSchema(r.subject, r.schemaType, r.schema, r.references, r.fingerprint, r.proposedId,
                r.checkedLevel, r.checkedRevision, r.metadata, r.ruleSet, r.lintWarnings, r.index);
    }

    /**
     * The command of a {@link RegisterVersions} payload (a subject's versions decided together),
     * each member's registration read as {@link #read} reads one; null when not in the canonical
     * form, as there.
     */
    static RegisterVersions readVersions(JsonParser p) throws IOException {
        Group g = new Group();
        if (CanonicalJson.object(p, g) < 0 || g.members == null) {
            return null;
        }
        return new RegisterVersions(g.subject, g.members);
    }

    private static final class Group implements CanonicalJson.Fields {
        Subject subject;
        List<RegisterVersions.Member> members;

        @Override
        public int read(JsonParser p, String field, JsonToken t) throws IOException {
            switch (field) {
                case "subject" -> {
                    String named = CanonicalJson.text(p, t);
                    subject = named == null || named == CanonicalJson.OTHER ? null : Subject.of(named);
                    return named == CanonicalJson.OTHER ? 0 : 1;
                }
                case "members" -> {
                    if (t != JsonToken.START_ARRAY) {
                        return 0;
                    }
                    List<RegisterVersions.Member> read = new ArrayList<>();
                    JsonToken m;
                    while ((m = p.nextToken()) == JsonToken.START_OBJECT) {
                        Member f = new Member();
                        if (CanonicalJson.object(p, f) < 0 || f.register == null) {
                            return 0;
                        }
                        read.add(new RegisterVersions.Member(f.principal, f.register));
                    }
                    members = read;
                    return m == JsonToken.END_ARRAY ? 2 : 0;
                }
                default -> {
                    return 0;
                }
            }
        }
    }

    private static final class Member implements CanonicalJson.Fields {
        Principal principal;
        RegisterSchema register;

        @Override
        public int read(JsonParser p, String field, JsonToken t) throws IOException {
            switch (field) {
                case "principal" -> {
                    String named = CanonicalJson.text(p, t);
                    principal = named == null || named == CanonicalJson.OTHER ? null : Principal.of(named);
                    return named == CanonicalJson.OTHER ? 0 : 1;
                }
                case "register" -> {
                    return t == JsonToken.START_OBJECT && (register = RegisterPayload.read(p)) != null ? 2 : 0;
                }
                default -> {
                    return 0;
                }
            }
        }
    }

    /** The payload's fields as they are read; a JSON null leaves a field null, as Jackson's binding does. */
    private static final class Payload implements CanonicalJson.Fields {
        Subject subject;
        SchemaType schemaType;
        String schema;
        List<SchemaReference> references;
        Fingerprint fingerprint;
        SchemaId proposedId;
        CompatibilityLevel checkedLevel;
        Offset checkedRevision;
        Metadata metadata;
        RuleSet ruleSet;
        List<String> lintWarnings;
        List<String> index;

        @Override
        public int read(JsonParser p, String field, JsonToken t) throws IOException {
            boolean isNull = t == JsonToken.VALUE_NULL;
            switch (field) {
                case "checkedLevel" -> {
                    return isNull || t == JsonToken.VALUE_STRING
                            && (checkedLevel = CanonicalJson.named(LEVELS, p.getText())) != null ? 1 : 0;
                }
                case "checkedRevision" -> {
                    if (!isNull) {
                        if (!CanonicalJson.isLong(p, t)) {
                            return 0;
                        }
                        checkedRevision = Offset.of(p.getLongValue());
                    }
                    return 2;
                }
                case "fingerprint" -> {
                    if (t == JsonToken.VALUE_STRING) { // read from the parser's buffer, without a String of it
                        fingerprint = Fingerprint.parse(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                    }
                    return isNull || t == JsonToken.VALUE_STRING ? 4 : 0;
                }
                case "metadata" -> {
                    if (!isNull) {
                        if (t != JsonToken.START_OBJECT) {
                            return 0;
                        }
                        metadata = METADATA.readValue(p);
                    }
                    return 8;
                }
                case "proposedId" -> {
                    if (!isNull) {
                        if (!CanonicalJson.isLong(p, t)) {
                            return 0;
                        }
                        proposedId = SchemaId.of(p.getLongValue());
                    }
                    return 16;
                }
                case "references" -> {
                    return isNull || (references = CanonicalJson.references(p, false)) != null ? 32 : 0;
                }
                case "ruleSet" -> {
                    if (!isNull) {
                        if (t != JsonToken.START_OBJECT) {
                            return 0;
                        }
                        ruleSet = RULE_SET.readValue(p);
                    }
                    return 64;
                }
                case "lintWarnings" -> {
                    return t == JsonToken.START_ARRAY && (lintWarnings = strings(p)) != null ? 1024 : 0;
                }
                case "index" -> {
                    return t == JsonToken.START_ARRAY && (index = strings(p)) != null ? 2048 : 0;
                }
                case "schema" -> {
                    return (schema = CanonicalJson.text(p, t)) == CanonicalJson.OTHER ? 0 : 128;
                }
                case "schemaType" -> {
                    return isNull || t == JsonToken.VALUE_STRING
                            && (schemaType = CanonicalJson.named(TYPES, p.getText())) != null ? 256 : 0;
                }
                case "subject" -> {
                    String name = CanonicalJson.text(p, t);
                    subject = name == null || name == CanonicalJson.OTHER ? null : Subject.of(name);
                    return name == CanonicalJson.OTHER ? 0 : 512;
                }
                default -> {
                    return 0;
                }
            }
        }

        /** An array of strings, the parser on its start; null when an element is not a string. */
        private static List<String> strings(JsonParser p) throws IOException {
            List<String> out = new ArrayList<>();
            JsonToken next;
            while ((next = p.nextToken()) == JsonToken.VALUE_STRING) {
                out.add(p.getText());
            }
            return next == JsonToken.END_ARRAY ? out : null;
        }
    }
}
