package io.quire.journal.codec;

/** A journal record that cannot be decoded. Stops the node unless skipping is configured. */
public final class CorruptRecordException extends RuntimeException {

    public CorruptRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
