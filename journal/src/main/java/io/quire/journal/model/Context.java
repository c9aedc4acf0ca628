package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * A schema context: an independent scope of subjects, ids and settings inside one registry. The
 * default context is {@code "."}; a named one starts with a dot ({@code ".staging"}) and qualifies a
 * subject as {@code :.staging:orders-value}. Ids are allocated registry-wide, so a registration in
 * any context gets an id no other context uses; an imported id may mean other content in another
 * context, as in Confluent's registry.
 */
public record Context(@JsonValue String name) implements Comparable<Context> {

    public static final Context DEFAULT = new Context(".");

    /** The length a context name may have, its dot included. */
    public static final int MAX_LENGTH = 128;

    public Context {
        Objects.requireNonNull(name, "context");
        if (!isValidName(name)) {
            throw new IllegalArgumentException("Invalid context name");
        }
    }

    /**
     * A context as a URL or a client spells it: {@code .staging}, {@code staging} or
     * {@code :.staging:} all name {@code .staging}; {@code .} and the empty string the default one.
     *
     * @throws IllegalArgumentException for a name with a colon inside or a control character
     */
    public static Context parse(String raw) {
        String n = raw == null ? "" : raw;
        if (n.startsWith(":")) {
            n = n.substring(1);
        }
        if (n.endsWith(":")) {
            n = n.substring(0, n.length() - 1);
        }
        if (n.contains(":")) {
            throw new IllegalArgumentException("Context name cannot contain a colon");
        }
        if (!n.startsWith(".")) {
            n = "." + n;
        }
        return n.equals(".") ? DEFAULT : new Context(n);
    }

    static boolean isValidName(String name) {
        if (!name.startsWith(".") || name.length() > MAX_LENGTH || name.indexOf(':') >= 0) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** A context as the journal spells it (exactly its name, {@code "."} for the default one). */
    @JsonCreator
    public static Context of(String name) {
        return name.equals(".") ? DEFAULT : new Context(name);
    }

    public boolean isDefault() {
        return name.equals(".");
    }

    /** What a qualified subject starts with: {@code ""} for the default context, else {@code :.name:}. */
    public String prefix() {
        return isDefault() ? "" : ":" + name + ":";
    }

    /** {@code bare} as a subject of this context. */
    public Subject subject(String bare) {
        return Subject.of(prefix() + bare);
    }

    /**
     * A subject a reference or a request names, read inside this context: a subject that names
     * no context belongs to this one, as Confluent resolves references of a qualified schema.
     */
    public Subject qualify(Subject s) {
        return isDefault() || s.isQualified() ? s : subject(s.name());
    }

    /**
     * The subject that holds this context's own settings ({@code PUT /config/:.staging:}); the
     * default context has none (its settings are the registry's).
     */
    public Subject settingsSubject() {
        if (isDefault()) {
            throw new IllegalStateException("the default context's settings are the registry's");
        }
        return Subject.of(prefix());
    }

    @Override
    public int compareTo(Context o) {
        return name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return name;
    }
}
