package io.quire.node.api;

import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaId;

/**
 * What a registration answers: the id, and the whole version when the schema was stored with a
 * data contract (Confluent then answers with the schema as stored, metadata and rules included,
 * so that the client learns what was merged in); {@code stored} is null otherwise.
 */
public record Registered(SchemaId id, SchemaGuid guid, SchemaVersion stored) {

    /** The response body: {@code {"id": …, "guid": …}}, or the stored version. */
    public Object body() {
        return stored != null ? stored : new Responses.Id(id, guid);
    }
}
