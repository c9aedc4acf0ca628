package io.quire.node.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.Association;
import io.quire.journal.model.Lifecycle;
import io.quire.journal.model.Subject;
import java.util.List;

/** The answer of {@code POST|PUT /associations}, with Confluent's field names. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AssociationResponse(String resourceName, String resourceNamespace, String resourceId, String resourceType,
                                  List<Info> associations) {

    /** One association; {@code schema}, the subject's latest version, only when asked for ({@code includeSchemas}). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Info(Subject subject, String associationType, Lifecycle lifecycle, boolean frozen,
                       SchemaVersion schema) {

        public Info(Association a) {
            this(a.subject(), a.associationType(), a.lifecycle(), a.frozen(), null);
        }
    }

    public static AssociationResponse of(List<Association> made) {
        Association first = made.get(0);
        return new AssociationResponse(first.resourceName(), first.resourceNamespace(), first.resourceId(),
                first.resourceType(), made.stream().map(Info::new).toList());
    }
}
