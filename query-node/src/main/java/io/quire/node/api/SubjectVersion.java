package io.quire.node.api;

import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;

/** One entry of {@code GET /schemas/ids/{id}/versions}. */
public record SubjectVersion(Subject subject, Version version) {
}
