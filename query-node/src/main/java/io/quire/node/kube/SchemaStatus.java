package io.quire.node.kube;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** What the reconciler found and did, as of {@code observedGeneration}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SchemaStatus {

    @JsonPropertyDescription("The resource's generation this status describes.")
    public Long observedGeneration;

    @JsonPropertyDescription("The subject, with its context.")
    public String subject;

    @JsonPropertyDescription("The schema id of the resource's schema in the registry.")
    public Long id;

    @PrinterColumn(name = "Version")
    @JsonPropertyDescription("The subject's version that holds the resource's schema.")
    public Integer version;

    @JsonPropertyDescription("The schema's GUID.")
    public String guid;

    @JsonPropertyDescription("The subject's latest version; above version when a version was registered outside the resource.")
    public Integer latestVersion;

    @JsonPropertyDescription("The subject's compatibility level this resource set; cleared from the registry when the"
            + " resource stops giving one.")
    public String compatibilityLevel;

    @JsonPropertyDescription("A digest of what the resource asked for when last reconciled (its text, references and settings).")
    public String desiredDigest;

    @JsonPropertyDescription("Synced, with a reason: Synced, Incompatible, InvalidSchema, ReferenceMissing, SchemaSourceMissing,"
            + " RegistryUnavailable or ChangedOutsideResource.")
    public List<Condition> conditions = new ArrayList<>();

    /** The condition of {@code type}, or null. */
    public Condition condition(String type) {
        return conditions == null ? null
                : conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    /** Equal but for when conditions changed: a status that says the same thing is not written again. */
    public boolean sameAs(SchemaStatus o) {
        if (o == null || !Objects.equals(observedGeneration, o.observedGeneration) || !Objects.equals(subject, o.subject)
                || !Objects.equals(id, o.id) || !Objects.equals(version, o.version) || !Objects.equals(guid, o.guid)
                || !Objects.equals(latestVersion, o.latestVersion) || !Objects.equals(desiredDigest, o.desiredDigest)
                || !Objects.equals(compatibilityLevel, o.compatibilityLevel)) {
            return false;
        }
        List<Condition> a = conditions == null ? List.of() : conditions;
        List<Condition> b = o.conditions == null ? List.of() : o.conditions;
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            Condition x = a.get(i);
            Condition y = b.get(i);
            if (!Objects.equals(x.getType(), y.getType()) || !Objects.equals(x.getStatus(), y.getStatus())
                    || !Objects.equals(x.getReason(), y.getReason()) || !Objects.equals(x.getMessage(), y.getMessage())
                    || !Objects.equals(x.getObservedGeneration(), y.getObservedGeneration())) {
                return false;
            }
        }
        return true;
    }
}
