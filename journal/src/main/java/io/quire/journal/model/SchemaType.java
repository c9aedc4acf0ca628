package io.quire.journal.model;

import java.util.Optional;

/** The schema languages of the Confluent API. An absent {@code schemaType} means AVRO. */
public enum SchemaType {
    AVRO, JSON, PROTOBUF;

    public static Optional<SchemaType> parse(String text) {
        if (text == null || text.isEmpty()) {
            return Optional.of(AVRO);
        }
        for (SchemaType t : values()) {
            if (t.name().equalsIgnoreCase(text)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
