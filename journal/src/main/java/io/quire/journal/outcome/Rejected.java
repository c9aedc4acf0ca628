package io.quire.journal.outcome;

import io.quire.journal.model.ErrorCode;

/** Refused with a Confluent error; nothing changed. */
public record Rejected(ErrorCode error, String message) implements Outcome {

    /** A rejection with the code's own message format filled in. */
    public static Rejected of(ErrorCode error, Object... args) {
        return new Rejected(error, error.message(args));
    }

    @Override
    public OutcomeType type() {
        return OutcomeType.REJECTED;
    }
}
