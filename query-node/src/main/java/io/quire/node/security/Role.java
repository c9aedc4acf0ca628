package io.quire.node.security;

import java.util.Locale;
import java.util.Optional;

/** What a caller may do; each role includes the ones before it. */
public enum Role {
    /** GET requests and schema lookups. */
    READER,
    /** Register, soft delete, compatibility checks. */
    WRITER,
    /** Config, mode, permanent deletes, operator endpoints, the audit trail. */
    ADMIN;

    public boolean includes(Role other) {
        return ordinal() >= other.ordinal();
    }

    public static Optional<Role> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(valueOf(text.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
