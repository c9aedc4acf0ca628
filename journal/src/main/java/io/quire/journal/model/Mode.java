package io.quire.journal.model;

import java.util.Optional;

/**
 * Registry modes. READONLY and READONLY_OVERRIDE refuse writes; IMPORT takes only registrations
 * that carry their id (and deletes); a global READONLY_OVERRIDE wins over every subject's mode.
 */
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
            if (m.name().equalsIgnoreCase(text)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
