package io.quire.node.write;

import io.quire.journal.model.Offset;
import io.quire.journal.outcome.Outcome;

/** A command's offset in the journal and what applying it did. */
public record Applied(Offset offset, Outcome outcome) {
}
