package io.quire.node.schema;

import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import java.util.List;

/**
 * A schema that parsed, in canonical form, with its content fingerprint and the parsed object of
 * its language (for compatibility checks).
 */
public record ParsedSchema(SchemaType type, String canonical, List<SchemaReference> references, String fingerprint,
                           Object parsed) {
}
