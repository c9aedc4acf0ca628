package io.quire.journal.model;

import java.util.Optional;

/** Registry modes. IMPORT is accepted on the wire but not yet writable (42204 at the edge). */
public enum Mode {
    READWRITE, READONLY, READONLY_OVERRIDE, IMPORT;

    public static final Mode DEFAULT = READWRITE;

    public boolean allowsWrites() {
        return this == READWRITE || this == IMPORT;
    }

    public static Optional<Mode> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (Mode m : values()) {
            if (m.name().equalsIgnoreCase(text.trim())) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
