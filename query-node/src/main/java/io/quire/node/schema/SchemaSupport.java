package io.quire.node.schema;

import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import java.util.List;
import java.util.Map;

/** One schema language: parse to canonical form, and check compatibility between two parsed schemas. */
public interface SchemaSupport {

    SchemaType type();

    /**
     * Parses {@code text}; {@code resolvedReferences} maps each reference name to the schema text it
     * points to, in dependency order. Throws {@link InvalidSchemaException} (42201).
     */
    ParsedSchema parse(String text, List<SchemaReference> references, Map<String, String> resolvedReferences);

    /**
     * Why {@code reader} cannot read data written with {@code writer}; empty when it can. The role
     * names ("new", "old") only word the messages.
     */
    List<String> readErrors(ParsedSchema reader, ParsedSchema writer, String readerRole, String writerRole);

    /** The normalised text of a canonical schema ({@code normalize=true}): equivalent schemas get one text. */
    default String normalize(String canonical) {
        return canonical;
    }
}
