package io.quire.node.schema;

import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import java.util.List;

/**
 * A schema that parsed, in canonical form, with its content fingerprint and the parsed object of
 * its language (for compatibility checks). {@code legacyCanonical} is the text an earlier release
 * stored for the same content, when it differs (Avro with references: the referenced types were
 * inlined); null otherwise. It is only used to find such a schema's existing id (ADR 0006).
 */
public record ParsedSchema(SchemaType type, String canonical, List<SchemaReference> references, String fingerprint,
                           Object parsed, String legacyCanonical) {

    public ParsedSchema(SchemaType type, String canonical, List<SchemaReference> references, String fingerprint,
                        Object parsed) {
        this(type, canonical, references, fingerprint, parsed, null);
    }

    /** The same schema as an earlier release stored it, or empty when that text is the canonical one. */
    public java.util.Optional<ParsedSchema> legacy() {
        if (legacyCanonical == null || legacyCanonical.equals(canonical)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new ParsedSchema(type, legacyCanonical, references,
                Fingerprints.of(type, legacyCanonical, references), parsed, null));
    }
}
