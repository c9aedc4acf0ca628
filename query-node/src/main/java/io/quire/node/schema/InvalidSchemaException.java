package io.quire.node.schema;

/**
 * A schema text that its language refuses (Confluent's 42201). Schema support throws only this;
 * the failure handler renders it like any other refusal.
 */
public final class InvalidSchemaException extends RuntimeException {

    public InvalidSchemaException(String message) {
        super(message, null, false, false);
    }
}
