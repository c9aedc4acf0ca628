package io.quire.node.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaId;
import java.util.List;

/**
 * The small response bodies of the Confluent API, one record each, with Confluent's field names:
 * the one JSON writer renders them; no handler builds a map.
 */
public final class Responses {

    private Responses() {
    }

    /** {@code POST /subjects/{s}/versions}: the id and, as Confluent 8 answers, the GUID. */
    public record Id(SchemaId id, SchemaGuid guid,
                     @JsonInclude(JsonInclude.Include.NON_NULL)
                     List<String> lintWarnings) {

        public Id(SchemaId id, SchemaGuid guid) {
            this(id, guid, null);
        }
    }

    /** One entry of {@code GET /schemas/guids/{guid}/ids}: an id of that content in a context. */
    public record ContextId(String context, SchemaId id) {
    }

    /** {@code GET /config[/{s}]}, {@code DELETE /config[/{s}]}: fields that are not set are left out. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Config(String compatibilityLevel, Boolean normalize, @JsonUnwrapped ConfigFields fields) {

        public Config(String compatibilityLevel, Boolean normalize) {
            this(compatibilityLevel, normalize, null);
        }
    }

    /**
     * {@code PUT /config[/{s}]}: Confluent answers with the field name it was given, {@code
     * compatibility}, and echoes the other fields the request set.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ConfigUpdate(String compatibility, Boolean normalize, @JsonUnwrapped ConfigFields fields) {
    }

    /** {@code /mode[/{s}]}. */
    public record ModeBody(String mode) {
    }

    /** {@code POST /compatibility/…}: {@code messages} only with {@code verbose=true}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Compatibility(@JsonProperty("is_compatible") boolean isCompatible, List<String> messages) {
    }

    /** {@code GET /admin/position}. */
    public record Position(Offset offset, String digest, int digestVersion) {
    }

    /** {@code GET /v1/metadata/id}: Confluent's shape, the Kafka cluster and this registry's cluster. */
    public record ServerClusterId(Scope scope) {

        public record Scope(List<String> path, Clusters clusters) {
        }

        public record Clusters(@JsonProperty("kafka-cluster") String kafkaCluster,
                               @JsonProperty("schema-registry-cluster") String schemaRegistryCluster) {
        }

        public static ServerClusterId of(String kafka, String registry) {
            return new ServerClusterId(new Scope(List.of(), new Clusters(kafka, registry)));
        }
    }

    /** {@code GET /v1/metadata/version}. */
    public record ServerVersion(String version, String commitId) {
    }

    /** {@code GET /health/live}. */
    public record Status(String status) {
    }

    /** {@code GET /health/ready}: DOWN until caught up, DEGRADED while the journal is unreachable. */
    public record Readiness(String status, String state, String journal, long appliedOffset) {
    }

    /** {@code GET /admin/view-digest}. */
    public record ViewDigest(String viewDigest) {
    }

    /** {@code GET /}: Confluent answers an empty object. */
    public record Empty() {
    }
}
