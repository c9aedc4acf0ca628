package io.quire.node.service;

import io.quire.journal.model.Metadata;
import io.quire.journal.model.Subject;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.schema.SchemaSupport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Confluent's reserved fields, checked when a subject's config has {@code validateFields}: the
 * metadata property {@code confluent:reserved} lists field names (comma-separated) that a new
 * version must keep reserved once the latest live version reserves them, and that no top-level
 * field of the new schema may use. Any level, NONE included, as Confluent checks them before
 * compatibility.
 */
final class ReservedFields {

    static final String PROPERTY = "confluent:reserved";

    private ReservedFields() {
    }

    /** The problems, in Confluent's words; empty when the config does not ask or nothing is wrong. */
    static List<String> problems(RegistryView view, SchemaSupport<?> support, Subject subject, ParsedSchema<?> parsed,
                                 DataContract contract, boolean validateFields) {
        if (!validateFields) {
            return List.of();
        }
        Set<String> reserved = of(contract.metadata());
        List<String> out = new ArrayList<>();
        Optional<StoredSchema> latest = view.latestLive(subject).flatMap(v -> view.schemaOf(subject, v));
        if (latest.isPresent()) {
            for (String field : of(latest.get().metadata())) {
                if (!reserved.contains(field)) {
                    out.add(String.format("The new schema has reserved field %s removed from its metadata which is"
                            + " present in the old schema's metadata.", field));
                }
            }
        }
        Set<String> fields = support.topLevelFieldsOf(parsed);
        for (String field : reserved) {
            if (fields.contains(field)) {
                out.add(String.format("The new schema has field that conflicts with the reserved field %s.", field));
            }
        }
        return out;
    }

    static Set<String> of(Metadata metadata) {
        String listed = metadata == null ? null : metadata.properties().get(PROPERTY);
        Set<String> out = new LinkedHashSet<>();
        if (listed != null) {
            Arrays.stream(listed.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(out::add);
        }
        return out;
    }
}
