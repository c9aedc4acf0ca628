package io.quire.node.security;

import io.quire.journal.model.Subject;
import java.util.List;

/**
 * An authenticated caller: a name (it goes into every journal command), a role, and optionally
 * the subject prefixes it is limited to (empty: every subject).
 */
public record Principal(String name, Role role, List<String> subjectPrefixes) {

    /** Who calls when authentication is off: everything is allowed. */
    public static final Principal ANONYMOUS_ADMIN = new Principal("anonymous", Role.ADMIN, List.of());

    public Principal {
        subjectPrefixes = List.copyOf(subjectPrefixes);
    }

    public boolean mayTouch(Subject subject) {
        return mayTouch(subject.name());
    }

    public boolean mayTouch(String subject) {
        if (subjectPrefixes.isEmpty()) {
            return true;
        }
        for (String p : subjectPrefixes) {
            if (subject.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
