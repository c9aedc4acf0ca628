package io.quire.node.service;

import io.quire.journal.model.ErrorCode;

/** A refusal with a Confluent error code; the HTTP failure handler renders it, nothing else does. */
public final class RegistryException extends RuntimeException {

    private final ErrorCode error;

    public RegistryException(ErrorCode error, String message) {
        super(message, null, false, false);
        this.error = error;
    }

    public static RegistryException of(ErrorCode error, Object... args) {
        return new RegistryException(error, error.message(args));
    }

    public ErrorCode error() {
        return error;
    }
}
