package io.quire.node.schema;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.node.service.RegistryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaParseException;

/**
 * Avro through Apache Avro itself: {@link Schema.Parser} to parse (named types of referenced
 * schemas parsed first into the same parser), {@code Schema.toString()} as the canonical form (what
 * Confluent stores and returns), {@link SchemaCompatibility} for the reader/writer check.
 */
public final class AvroSupport implements SchemaSupport {

    @Override
    public SchemaType type() {
        return SchemaType.AVRO;
    }

    @Override
    public ParsedSchema parse(String text, List<SchemaReference> references, Map<String, String> resolvedReferences) {
        Schema.Parser parser = new Schema.Parser();
        try {
            for (String refText : resolvedReferences.values()) {
                parser.parse(refText);
            }
            Schema schema = parser.parse(text);
            String canonical = schema.toString();
            return new ParsedSchema(SchemaType.AVRO, canonical, references,
                    Fingerprints.of(SchemaType.AVRO, canonical, references), schema);
        } catch (SchemaParseException | NullPointerException | IllegalArgumentException e) {
            throw new RegistryException(ErrorCode.INVALID_SCHEMA,
                    "Invalid schema " + abbreviate(text) + ", details: " + e.getMessage());
        }
    }

    @Override
    public List<String> readErrors(ParsedSchema reader, ParsedSchema writer) {
        SchemaCompatibility.SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(
                (Schema) reader.parsed(), (Schema) writer.parsed());
        List<String> errors = new ArrayList<>();
        if (result.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return errors;
        }
        for (SchemaCompatibility.Incompatibility i : result.getResult().getIncompatibilities()) {
            errors.add("{errorType:'" + i.getType() + "', description:'" + i.getMessage() + "' at path '"
                    + i.getLocation() + "', additionalInfo:'" + i.getMessage() + "'}");
        }
        if (errors.isEmpty()) {
            errors.add("{errorType:'" + result.getType() + "', description:'" + result.getDescription() + "'}");
        }
        return errors;
    }

    static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
