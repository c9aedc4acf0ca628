package io.quire.journal.model;

import java.util.Optional;

/** The seven compatibility levels, with which direction(s) and how far back each one checks. */
public enum CompatibilityLevel {
    BACKWARD(true, false, false),
    BACKWARD_TRANSITIVE(true, false, true),
    FORWARD(false, true, false),
    FORWARD_TRANSITIVE(false, true, true),
    FULL(true, true, false),
    FULL_TRANSITIVE(true, true, true),
    NONE(false, false, false);

    public static final CompatibilityLevel DEFAULT = BACKWARD;

    /** The new schema must read data written with the old ones. */
    public final boolean backward;
    /** The old schemas must read data written with the new one. */
    public final boolean forward;
    /** Against every live version, not only the latest. */
    public final boolean transitive;

    CompatibilityLevel(boolean backward, boolean forward, boolean transitive) {
        this.backward = backward;
        this.forward = forward;
        this.transitive = transitive;
    }

    public static Optional<CompatibilityLevel> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (CompatibilityLevel l : values()) {
            if (l.name().equalsIgnoreCase(text)) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }
}
