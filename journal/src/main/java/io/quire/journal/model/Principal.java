package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * Who a journal record is written for: the authenticated caller's name, or the node's own name
 * for what it writes by itself (an id lease, a follower's copy, an exporter's progress). The
 * journal records it and the audit trail shows it; it decides nothing. On the wire it is the name.
 */
public record Principal(@JsonValue String name) {

    /** The caller when authentication is off, and the principal of a record that names none. */
    public static final Principal ANONYMOUS = new Principal("anonymous");

    public Principal {
        Objects.requireNonNull(name, "name");
    }

    @JsonCreator
    public static Principal of(String name) {
        return name.equals(ANONYMOUS.name) ? ANONYMOUS : new Principal(name);
    }

    @Override
    public String toString() {
        return name;
    }
}
