package io.quire.node.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.quire.client.RegisterRequest;
import io.quire.journal.model.Lifecycle;
import java.util.List;

/**
 * The body of {@code POST|PUT /associations}: one resource and the subjects to associate with it,
 * one per role. An entry may carry a schema to register under its subject first.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AssociationRequest(String resourceName, String resourceNamespace, String resourceId, String resourceType,
                                 List<Entry> associations) {

    /** One association to make; {@code schema} and {@code normalize} register a schema under the subject first. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Entry(String subject, String associationType, Lifecycle lifecycle, Boolean frozen,
                        RegisterRequest schema, Boolean normalize) {
    }

    public List<Entry> associationsOrEmpty() {
        return associations == null ? List.of() : associations;
    }
}
