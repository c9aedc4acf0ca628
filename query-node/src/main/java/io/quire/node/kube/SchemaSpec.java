package io.quire.node.kube;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.List;
import java.util.Map;

/**
 * What a {@link Schema} resource asks for. Public fields: the CRD is generated from them, and the
 * client reads and writes them as they are.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "has(self.schema) != has(self.schemaFrom)",
        message = "give the schema's text in exactly one of schema and schemaFrom")
public class SchemaSpec {

    /** How a resource's subject goes when the resource goes. */
    public enum DeletionPolicy { Keep, SoftDelete, Delete }

    /** The schema languages the registry takes. */
    public enum SchemaType { AVRO, PROTOBUF, JSON }

    /** The compatibility levels a subject may be set to. */
    public enum Compatibility {
        NONE, BACKWARD, BACKWARD_TRANSITIVE, FORWARD, FORWARD_TRANSITIVE, FULL, FULL_TRANSITIVE
    }

    @PrinterColumn(name = "Subject")
    @JsonPropertyDescription("The subject; the resource's name when not given.")
    public String subject;

    @JsonPropertyDescription("The schema context the subject is in (for example .payments); the default context when not given.")
    public String context;

    @Default("AVRO")
    @JsonPropertyDescription("The schema's language.")
    public SchemaType schemaType;

    @JsonPropertyDescription("The schema's text, in its language.")
    public String schema;

    @JsonPropertyDescription("Where the schema's text is, when not in this resource.")
    public SchemaSource schemaFrom;

    @JsonPropertyDescription("The schemas this one references.")
    public List<Reference> references;

    @JsonPropertyDescription("The subject's compatibility level; left as the registry has it when not given.")
    public Compatibility compatibilityLevel;

    @JsonPropertyDescription("Whether the registry normalizes the schema before comparing and storing it.")
    public Boolean normalize;

    @JsonPropertyDescription("The version's metadata (data contracts): tags, properties and sensitive names.")
    public Metadata metadata;

    @PreserveUnknownFields
    @JsonPropertyDescription("The version's rule set (data contracts), as the registry's REST API takes it.")
    public tools.jackson.databind.JsonNode ruleSet;

    @Default("Keep")
    @JsonPropertyDescription("What happens to the subject when the resource is deleted: Keep, SoftDelete or Delete"
            + " (soft, then permanently).")
    public DeletionPolicy deletionPolicy;

    /** Where a schema's text lives outside the resource. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class SchemaSource {
        @JsonPropertyDescription("A key of a ConfigMap in the resource's namespace.")
        public ConfigMapKeySelector configMapKeyRef;
    }

    /** A schema this one references: another Schema resource, or a subject. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @ValidationRule(value = "has(self.schemaRef) != has(self.subject)",
            message = "a reference names exactly one of schemaRef and subject")
    public static class Reference {
        @Required
        @JsonPropertyDescription("The name the schema uses for it (an Avro full name, a Protobuf import, a JSON Schema $ref).")
        public String name;

        @JsonPropertyDescription("Another Schema resource in this namespace.")
        public String schemaRef;

        @JsonPropertyDescription("A subject of the registry.")
        public String subject;

        @JsonPropertyDescription("The version referenced: a number, or latest (the default).")
        public IntOrString version;
    }

    /** A version's metadata, as Confluent's data contracts have it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Metadata {
        public Map<String, List<String>> tags;
        public Map<String, String> properties;
        public List<String> sensitive;
    }
}
