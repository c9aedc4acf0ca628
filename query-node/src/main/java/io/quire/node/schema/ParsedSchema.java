package io.quire.node.schema;

import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import java.util.List;
import java.util.Optional;

/**
 * A schema that parsed, in canonical form, with its content fingerprint and the parsed form of its
 * language ({@code T}: Avro's {@code Schema}, a JSON document, a Protobuf file), which the
 * compatibility checks read. {@code legacyCanonical} is the text an earlier release stored for the
 * same content, when it differs (Avro with references: the referenced types were inlined); null
 * otherwise. It is only used to find such a schema's existing id (ADR 0006).
 */
public record ParsedSchema<T>(SchemaType type, String canonical, List<SchemaReference> references, Fingerprint fingerprint,
                              T parsed, String legacyCanonical) {

    public ParsedSchema(SchemaType type, String canonical, List<SchemaReference> references, Fingerprint fingerprint,
                        T parsed) {
        this(type, canonical, references, fingerprint, parsed, null);
    }

    /** The same schema under another canonical text (its normalised form), fingerprinted anew. */
    public ParsedSchema<T> withCanonical(String text) {
        return new ParsedSchema<>(type, text, references, Fingerprints.of(type, text, references), parsed);
    }

    /** The same schema as an earlier release stored it, or empty when that text is the canonical one. */
    public Optional<ParsedSchema<T>> legacy() {
        if (legacyCanonical == null || legacyCanonical.equals(canonical)) {
            return Optional.empty();
        }
        return Optional.of(new ParsedSchema<>(type, legacyCanonical, references,
                Fingerprints.of(type, legacyCanonical, references), parsed, null));
    }

    /**
     * This schema seen as one of the language whose parsed form is {@code form}; the one place a
     * schema of unknown language becomes a typed one, checked.
     */
    @SuppressWarnings("unchecked")
    <U> ParsedSchema<U> as(Class<U> form) {
        if (!form.isInstance(parsed)) {
            throw new IllegalArgumentException("a " + type + " schema is not a " + form.getSimpleName());
        }
        return (ParsedSchema<U>) this;
    }
}
