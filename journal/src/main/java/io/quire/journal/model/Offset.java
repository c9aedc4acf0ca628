package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A position in the journal topic: the offset of one record. What a view has applied, what a
 * write waits for, what a compatibility check was made against. On the wire it is the bare number.
 */
public record Offset(@JsonValue long value) implements Comparable<Offset> {

    /** Before the first record; also the revision of a subject that does not exist. */
    public static final Offset NONE = new Offset(-1);

    /**
     * A revision a registration was checked against that is the record's own: the subject as the
     * earlier members of the same {@code RegisterVersions} record leave it (never a real offset).
     */
    public static final Offset THIS_RECORD = new Offset(-2);

    @JsonCreator
    public static Offset of(long value) {
        return new Offset(value);
    }

    public boolean isAfter(Offset other) {
        return value > other.value;
    }

    @Override
    public int compareTo(Offset o) {
        return Long.compare(value, o.value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
