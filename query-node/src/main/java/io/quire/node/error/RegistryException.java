package io.quire.node.error;

import io.quire.journal.model.ErrorCode;

/**
 * A refusal with a Confluent error code; the HTTP failure handler renders it, nothing else does.
 * It lives in a leaf package so that every layer (schema support, services, the journal writer)
 * may throw it without depending on one another.
 */
public final class RegistryException extends RuntimeException {

    private final ErrorCode error;
    private final int retryAfterSeconds;

    public RegistryException(ErrorCode error, String message) {
        this(error, message, 0, null);
    }

    private RegistryException(ErrorCode error, String message, int retryAfterSeconds, Throwable cause) {
        super(message, cause, false, false);
        this.error = error;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static RegistryException of(ErrorCode error, Object... args) {
        return new RegistryException(error, error.message(args));
    }

    /** A refusal the client should retry: answered with {@code Retry-After}. */
    public static RegistryException retryLater(ErrorCode error, int retryAfterSeconds, Object... args) {
        return new RegistryException(error, error.message(args), retryAfterSeconds, null);
    }

    /** A server-side failure whose cause is logged by the failure handler, never shown to the client. */
    public static RegistryException withCause(ErrorCode error, Throwable cause, Object... args) {
        return new RegistryException(error, error.message(args), 0, cause);
    }

    public ErrorCode error() {
        return error;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
