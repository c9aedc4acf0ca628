package io.quire.node.api;

import io.quire.journal.model.Offset;

/** The result of a write and the journal offset it was applied at (the read-your-writes token). */
public record Written<T>(T value, Offset offset) {
}
