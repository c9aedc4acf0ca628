package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A schema id: one per distinct content, registry-wide, never reused. Ids come from leased blocks
 * (or, in IMPORT mode, from the registry being migrated). On the wire it is the bare number.
 */
public record SchemaId(@JsonValue long value) implements Comparable<SchemaId> {

    @JsonCreator
    public static SchemaId of(long value) {
        return new SchemaId(value);
    }

    @Override
    public int compareTo(SchemaId o) {
        return Long.compare(value, o.value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
