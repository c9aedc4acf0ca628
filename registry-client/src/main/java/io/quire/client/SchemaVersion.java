package io.quire.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaReference;
import java.util.List;

/**
 * A subject's version as {@code GET /subjects/{s}/versions/{v}} answers it. Registries that do not
 * send a field (the GUID, the data contract, {@code deleted}) leave it null; {@code schemaType} is
 * null for Avro, as Confluent answers.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SchemaVersion(String subject, int version, long id, String guid, String schemaType, String schema,
                            List<SchemaReference> references, Metadata metadata, RuleSet ruleSet, Boolean deleted) {

    public List<SchemaReference> referencesOrEmpty() {
        return references == null ? List.of() : references;
    }

    /** The schema type, Avro when the answer names none. */
    public String typeOrAvro() {
        return schemaType == null || schemaType.isEmpty() ? "AVRO" : schemaType;
    }
}
