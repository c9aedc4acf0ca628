package io.quire.client;

import java.io.IOException;

/**
 * A registry's refusal or failure of one call: the HTTP status, Confluent's {@code error_code}
 * when the body carries one (-1 otherwise) and what was being done.
 */
public final class RegistryException extends IOException {

    private final int status;
    private final int errorCode;

    public RegistryException(int status, int errorCode, String message) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
    }

    public int status() {
        return status;
    }

    public int errorCode() {
        return errorCode;
    }
}
