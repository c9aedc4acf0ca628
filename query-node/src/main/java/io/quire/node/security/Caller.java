package io.quire.node.security;

import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import java.util.List;

/**
 * An authenticated caller: the principal every journal command it sends is written for, a role,
 * and optionally the subject prefixes it is limited to (empty: every subject).
 */
public record Caller(Principal principal, Role role, List<String> subjectPrefixes) {

    /** Who calls when authentication is off: everything is allowed. */
    public static final Caller ANONYMOUS_ADMIN = new Caller(Principal.ANONYMOUS, Role.ADMIN, List.of());

    public Caller {
        subjectPrefixes = List.copyOf(subjectPrefixes);
    }

    public Caller(String name, Role role, List<String> subjectPrefixes) {
        this(Principal.of(name), role, subjectPrefixes);
    }

    /** The principal's name. */
    public String name() {
        return principal.name();
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
