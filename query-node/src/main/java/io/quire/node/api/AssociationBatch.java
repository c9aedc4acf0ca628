package io.quire.node.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.quire.client.RegisterRequest;
import io.quire.journal.model.Lifecycle;
import java.util.List;

/**
 * The bodies of Confluent's batch association calls: {@code POST /associations:batchMutate}
 * ({@link Mutations}: per resource, operations CREATE, UPSERT or DELETE) and
 * {@code POST /associations:batchGet} ({@link Gets}: per resource, by id or by name).
 */
public final class AssociationBatch {

    private AssociationBatch() {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Mutations(List<Mutation> requests) {
        public List<Mutation> requestsOrEmpty() {
            return requests == null ? List.of() : requests;
        }
    }

    /** The operations on one resource, in order. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Mutation(String resourceName, String resourceNamespace, String resourceId, String resourceType,
                           List<Op> associations) {
        public List<Op> associationsOrEmpty() {
            return associations == null ? List.of() : associations;
        }
    }

    /** One operation: {@code opType} CREATE or UPSERT (as POST and PUT /associations), or DELETE of one role. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Op(String opType, String subject, String associationType, Lifecycle lifecycle, Boolean frozen,
                     RegisterRequest schema, Boolean normalize) {

        public AssociationRequest.Entry entry() {
            return new AssociationRequest.Entry(subject, associationType, lifecycle, frozen, schema, normalize);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Gets(List<Get> requests) {
        public List<Get> requestsOrEmpty() {
            return requests == null ? List.of() : requests;
        }
    }

    /** One resource to look up, by id or by name and namespace, with the filters of the GET calls. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Get(String resourceName, String resourceNamespace, String resourceId, String resourceType,
                      List<String> associationTypes, Lifecycle lifecycle) {
    }
}
