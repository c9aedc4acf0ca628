package io.quire.journal.model;

/** A reference from one schema to a version of another subject, under an import name. */
public record SchemaReference(String name, Subject subject, Version version) {

    /** A reference without a version names version 0, which never exists (as before versions were typed). */
    public SchemaReference {
        version = version == null ? Version.NONE : version;
    }
}
