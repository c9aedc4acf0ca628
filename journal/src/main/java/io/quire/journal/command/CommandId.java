package io.quire.journal.command;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.quire.journal.model.Offset;
import java.util.Objects;
import java.util.UUID;

/**
 * The id a node gives a command when it sends it: the record's key in the journal topic, and how
 * the node that waits for the command's outcome knows it when it is applied. On the wire it is the
 * text as written (a random UUID for every record written now).
 */
public record CommandId(@JsonValue String value) {

    public CommandId {
        Objects.requireNonNull(value, "value");
    }

    /** A new id for a command about to be sent. */
    public static CommandId random() {
        return new CommandId(UUID.randomUUID().toString());
    }

    @JsonCreator
    public static CommandId of(String value) {
        return new CommandId(value);
    }

    /** The id an outcome carries for a record that could not be read (it has none of its own). */
    public static CommandId unreadable(Offset offset) {
        return new CommandId("unreadable@" + offset);
    }

    @Override
    public String toString() {
        return value;
    }
}
