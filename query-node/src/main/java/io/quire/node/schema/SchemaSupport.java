package io.quire.node.schema;

import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One schema language: parse to canonical form, and check compatibility between two parsed
 * schemas. {@code T} is the language's parsed form.
 */
public interface SchemaSupport<T> {

    SchemaType type();

    /** The class of the parsed form, to check a schema of unknown language before it is compared. */
    Class<T> form();

    /**
     * Parses {@code text}; {@code resolvedReferences} maps each reference name to the schema text it
     * points to, in dependency order. Throws {@link InvalidSchemaException} (42201).
     */
    ParsedSchema<T> parse(String text, List<SchemaReference> references, Map<String, String> resolvedReferences);

    /**
     * Why {@code reader} cannot read data written with {@code writer}; empty when it can. The role
     * names ("new", "old") only word the messages.
     */
    List<String> readErrors(ParsedSchema<T> reader, ParsedSchema<T> writer, String readerRole, String writerRole);

    /** As {@link #readErrors}, for schemas known to be of this language but not typed as such. */
    default List<String> readErrorsOf(ParsedSchema<?> reader, ParsedSchema<?> writer, String readerRole,
                                      String writerRole) {
        return readErrors(reader.as(form()), writer.as(form()), readerRole, writerRole);
    }

    /**
     * The names of the schema's top-level fields, which Confluent's reserved-field check
     * ({@code validateFields}) looks at: an Avro record's fields, a JSON Schema object's
     * properties, the first Protobuf message's fields (its oneofs' included).
     */
    Set<String> topLevelFields(ParsedSchema<T> schema);

    /** As {@link #topLevelFields}, for a schema known to be of this language but not typed as such. */
    default Set<String> topLevelFieldsOf(ParsedSchema<?> schema) {
        return topLevelFields(schema.as(form()));
    }

    /** The normalised text of a canonical schema ({@code normalize=true}): equivalent schemas get one text. */
    default String normalize(String canonical) {
        return canonical;
    }
}
