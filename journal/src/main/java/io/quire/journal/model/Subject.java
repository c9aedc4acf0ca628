package io.quire.journal.model;

import java.util.Objects;

/** A subject name. Validated at the edge; the applier re-checks {@link #isValid} to stay total. */
public record Subject(String name) implements Comparable<Subject> {

    public static final int MAX_LENGTH = 255;

    public Subject {
        Objects.requireNonNull(name, "subject");
    }

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

    @Override
    public int compareTo(Subject o) {
        return name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return name;
    }
}
