package io.quire.node.schema;

import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Version;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies a compatibility level: which earlier versions to check (the latest, or all for the
 * transitive levels) and in which direction (new reads old for BACKWARD, old reads new for
 * FORWARD, both for FULL).
 */
public final class CompatibilityChecker {

    /** An earlier version to check against, with its number for the messages. */
    public record Earlier(Version version, ParsedSchema<?> schema) {
    }

    static final String DIFFERENT_TYPE = "Incompatible because of different schema type";

    private CompatibilityChecker() {
    }

    /**
     * @param earlier live versions, ascending
     * @return why the candidate is incompatible; empty when it is compatible
     */
    public static List<String> check(SchemaSupport<?> support, CompatibilityLevel level, ParsedSchema<?> candidate,
                                     List<Earlier> earlier) {
        List<String> messages = new ArrayList<>();
        if (level == CompatibilityLevel.NONE || earlier.isEmpty()) {
            return messages;
        }
        List<Earlier> targets = level.transitive ? earlier : earlier.subList(earlier.size() - 1, earlier.size());
        for (int i = targets.size() - 1; i >= 0; i--) {
            Earlier old = targets.get(i);
            List<String> found = new ArrayList<>();
            if (old.schema().type() != candidate.type()) {
                // Confluent's wording; the two schemas cannot be compared by either language's rules.
                found.add(DIFFERENT_TYPE);
            } else {
                if (level.backward) {
                    found.addAll(support.readErrorsOf(candidate, old.schema(), "new", "old"));
                }
                if (level.forward) {
                    found.addAll(support.readErrorsOf(old.schema(), candidate, "old", "new"));
                }
            }
            if (!found.isEmpty()) {
                messages.addAll(found);
                messages.add("{oldSchemaVersion: " + old.version() + "}");
                messages.add("{oldSchema: '" + old.schema().canonical() + "'}");
            }
        }
        if (!messages.isEmpty()) {
            messages.add("{compatibility: '" + level + "'}");
        }
        return messages;
    }
}
