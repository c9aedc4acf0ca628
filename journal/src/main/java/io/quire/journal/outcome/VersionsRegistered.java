package io.quire.journal.outcome;

import java.util.List;

/**
 * Every member of a {@code RegisterVersions} record registered as a new version, or every import
 * of an {@code ImportSchemas} record imported, in order.
 */
public record VersionsRegistered(List<SchemaRegistered> versions) implements Outcome {

    public VersionsRegistered {
        versions = List.copyOf(versions);
    }

    @Override
    public OutcomeType type() {
        return OutcomeType.VERSIONS_REGISTERED;
    }
}
