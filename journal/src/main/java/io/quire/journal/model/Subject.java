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
        // ":.:orders" would be a second spelling of "orders"; a context-only name (":.ctx:") holds settings only
        return !name.startsWith(":.:");
    }

    /** {@link #isValid(String)} for a subject that may be absent from a command. */
    public static boolean isValid(Subject subject) {
        return subject != null && isValid(subject.name);
    }

    /** Whether the name starts with a context ({@code :.ctx:name}); such a name always holds a second colon. */
    public boolean isQualified() {
        return name.startsWith(":.") && name.indexOf(':', 2) > 0;
    }

    /** The context the name places the subject in (the default one unless qualified). */
    public Context context() {
        if (!isQualified()) {
            return Context.DEFAULT;
        }
        try {
            return new Context(name.substring(1, name.indexOf(':', 2)));
        } catch (IllegalArgumentException e) {
            return Context.DEFAULT;
        }
    }

    /** The name inside its context ({@code orders} for {@code :.ctx:orders}). */
    public String bare() {
        return isQualified() ? name.substring(name.indexOf(':', 2) + 1) : name;
    }

    /** A name that is only a context ({@code :.ctx:}): it names the context's settings, never a schema's subject. */
    public boolean isContextOnly() {
        return isQualified() && bare().isEmpty();
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
