package io.quire.node.schema;

import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * Avro through Apache Avro itself: {@link Schema.Parser} to parse (named types of referenced
 * schemas parsed first into the same parser), {@code Schema.toString(referenced, false)} as the
 * canonical form (what Confluent stores and returns: referenced types by name),
 * {@link SchemaCompatibility} for the reader/writer check.
 */
public final class AvroSupport implements SchemaSupport<Schema> {

    @Override
    public SchemaType type() {
        return SchemaType.AVRO;
    }

    @Override
    public Class<Schema> form() {
        return Schema.class;
    }

    @Override
    public ParsedSchema<Schema> parse(String text, List<SchemaReference> references, Map<String, String> resolvedReferences) {
        Schema.Parser parser = new Schema.Parser();
        try {
            List<Schema> referenced = new ArrayList<>(resolvedReferences.size());
            for (String refText : resolvedReferences.values()) {
                referenced.add(parser.parse(refText));
            }
            Schema schema = parser.parse(text);
            // As Confluent stores it: the referenced named types by name, not inlined, so a client
            // that loads the references too does not see them twice, and the spelling of a
            // reference does not change the text.
            String canonical = schema.toString(referenced, false);
            return new ParsedSchema<>(SchemaType.AVRO, canonical, references,
                    Fingerprints.of(SchemaType.AVRO, canonical, references), schema,
                    referenced.isEmpty() ? null : schema.toString());
        } catch (AvroRuntimeException | NullPointerException | IllegalArgumentException e) {
            // AvroRuntimeException covers SchemaParseException and AvroTypeException ("Undefined schema").
            throw new InvalidSchemaException(
                    "Invalid schema " + abbreviate(text) + ", details: " + e.getMessage());
        } catch (StackOverflowError e) {
            throw new InvalidSchemaException("Invalid schema: nested too deeply");
        }
    }

    @Override
    public Set<String> topLevelFields(ParsedSchema<Schema> schema) {
        Schema s = schema.parsed();
        Set<String> out = new LinkedHashSet<>();
        if (s.getType() == Schema.Type.RECORD) {
            s.getFields().forEach(f -> out.add(f.name()));
        }
        return out;
    }

    @Override
    public List<String> readErrors(ParsedSchema<Schema> reader, ParsedSchema<Schema> writer, String readerRole, String writerRole) {
        SchemaCompatibility.SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(
                reader.parsed(), writer.parsed());
        List<String> errors = new ArrayList<>();
        if (result.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return errors;
        }
        for (SchemaCompatibility.Incompatibility i : result.getResult().getIncompatibilities()) {
            errors.add("{errorType:'" + i.getType() + "', description:'" + describe(i, readerRole, writerRole)
                    + "', additionalInfo:'" + i.getMessage() + "'}");
        }
        if (errors.isEmpty()) {
            errors.add("{errorType:'" + result.getType() + "', description:'" + result.getDescription() + "'}");
        }
        return errors;
    }

    /** Says which schema lacks what, in the words of the check's direction. */
    static String describe(SchemaCompatibility.Incompatibility i, String reader, String writer) {
        String at = "at path '" + i.getLocation() + "'";
        return switch (i.getType()) {
            case READER_FIELD_MISSING_DEFAULT_VALUE -> "The field '" + i.getMessage() + "' " + at + " in the " + reader
                    + " schema has no default value and is missing in the " + writer + " schema";
            case TYPE_MISMATCH -> "The type " + at + " in the " + reader + " schema does not match the " + writer
                    + " schema";
            case NAME_MISMATCH -> "The name of the schema " + at + " differs between the " + reader + " and the "
                    + writer + " schema";
            case FIXED_SIZE_MISMATCH -> "The size of the fixed type " + at + " in the " + reader
                    + " schema does not match the " + writer + " schema";
            case MISSING_ENUM_SYMBOLS -> "The " + reader + " schema is missing enum symbols '" + i.getMessage() + "' "
                    + at + " of the " + writer + " schema";
            case MISSING_UNION_BRANCH -> "The " + reader + " schema is missing a type inside a union field " + at
                    + " of the " + writer + " schema";
            default -> i.getMessage() + " " + at;
        };
    }

    static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
