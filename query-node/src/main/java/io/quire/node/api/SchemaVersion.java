package io.quire.node.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.util.List;

/**
 * A subject version as Confluent returns it; {@code schemaType} is null (left out) for AVRO,
 * {@code metadata} and {@code ruleSet} are left out when the schema has no data contract, {@code
 * ts} (when the version was registered, epoch millis) when the view does not know it.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonPropertyOrder({"subject", "version", "id", "guid", "schemaType", "references", "metadata", "ruleSet", "schema", "ts"})
public record SchemaVersion(Subject subject, Version version, SchemaId id, SchemaGuid guid, String schemaType,
                            List<SchemaReference> references, Metadata metadata, RuleSet ruleSet, String schema,
                            Long ts) {
}
