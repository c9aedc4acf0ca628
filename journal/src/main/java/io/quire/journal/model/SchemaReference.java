package io.quire.journal.model;

/** A reference from one schema to a version of another subject, under an import name. */
public record SchemaReference(String name, String subject, int version) {
}
