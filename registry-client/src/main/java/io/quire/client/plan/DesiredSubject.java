package io.quire.client.plan;

import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import java.util.List;

/**
 * A subject as a folder of schemas wants it: its schema (the file's text, in its language), the
 * references it names (a version number or {@code latest}), and the settings its settings file
 * states (null: not managed by the folder).
 *
 * @param file the schema file, relative to the folder (for messages)
 */
public record DesiredSubject(String subject, String schemaType, String schema, List<DesiredReference> references,
                             String compatibility, Boolean normalize, Metadata metadata, RuleSet ruleSet,
                             String file) {

    public DesiredSubject {
        references = references == null ? List.of() : List.copyOf(references);
    }

    /** Whether the registry should normalise the schema before comparing and storing it. */
    public boolean normalized() {
        return Boolean.TRUE.equals(normalize);
    }

    /** A reference by subject: a version number, or {@code latest} (the version the plan applies or finds). */
    public record DesiredReference(String name, String subject, String version) {

        public boolean latest() {
            return version == null || "latest".equals(version) || "-1".equals(version);
        }
    }
}
