package io.quire.journal.model;

/** A schema id: identifies content, the same in every subject. Not ordered by registration. */
public record SchemaId(long value) implements Comparable<SchemaId> {

    public SchemaId {
        if (value < 0) {
            throw new IllegalArgumentException("schema id must not be negative: " + value);
        }
    }

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
