package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * A subject name. Validated at the edge; the applier re-checks {@link #isValid(Subject)} to stay
 * total, so a journal record with a bad name is refused rather than unreadable. On the wire it is
 * the bare string.
 */
public record Subject(@JsonValue String name) implements Comparable<Subject> {

    public static final int MAX_LENGTH = 255;

    public Subject {
        Objects.requireNonNull(name, "subject");
    }

    @JsonCreator
    public static Subject of(String name) {
        return new Subject(name);
    }

    /** Not empty, not too long, no control characters (they would break keys and logs). */
    public static boolean isValid(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** {@link #isValid(String)} for a subject that may be absent from a command. */
    public static boolean isValid(Subject subject) {
        return subject != null && isValid(subject.name);
    }

    @Override
    public int compareTo(Subject o) {
        return name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return name;
    }
}
