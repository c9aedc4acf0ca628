package io.quire.journal.outcome;

import io.quire.journal.model.ErrorCode;

/** Refused with a Confluent error; nothing changed. */
public record Rejected(ErrorCode error, String message) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.REJECTED;
    }
}
