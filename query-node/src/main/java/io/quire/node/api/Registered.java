package io.quire.node.api;

import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaId;
import java.util.List;

/**
 * What a registration answers: the id, and the whole version when the schema was stored with a
 * data contract (Confluent then answers with the schema as stored, metadata and rules included,
 * so that the client learns what was merged in); {@code stored} is null otherwise.
 */
public record Registered(SchemaId id, SchemaGuid guid, SchemaVersion stored, List<String> lintWarnings) {

    public Registered(SchemaId id, SchemaGuid guid, SchemaVersion stored) {
        this(id, guid, stored, List.of());
    }

    /**
     * The response body: {@code {"id": …, "guid": …}} (with {@code lintWarnings} when a lint config
     * that warns found any), or the stored version.
     */
    public Object body() {
        return stored != null ? stored : new Responses.Id(id, guid, lintWarnings.isEmpty() ? null : lintWarnings);
    }

    /** This answer with the lint warnings of the registration. */
    public Registered withLintWarnings(List<String> warnings) {
        return new Registered(id, guid, stored, warnings);
    }
}
