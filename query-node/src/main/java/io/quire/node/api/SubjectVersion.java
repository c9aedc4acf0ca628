package io.quire.node.api;

/** One entry of {@code GET /schemas/ids/{id}/versions}. */
public record SubjectVersion(String subject, int version) {
}
