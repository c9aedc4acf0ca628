package io.quire.node.service;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Version;
import io.quire.node.error.RegistryException;

/** A version as a client names it: a positive number, {@code latest} or {@code -1}. */
public record VersionSpec(int number) {

    public static final VersionSpec LATEST = new VersionSpec(-1);

    /** The version named; only meaningful when it is not {@link #isLatest() latest}. */
    public Version version() {
        return Version.of(number);
    }

    public boolean isLatest() {
        return number == -1;
    }

    public static VersionSpec parse(String text) {
        if ("latest".equalsIgnoreCase(text) || "-1".equals(text)) {
            return LATEST;
        }
        try {
            int n = Integer.parseInt(text);
            if (n >= 1) {
                return new VersionSpec(n);
            }
        } catch (NumberFormatException e) {
            // falls through to the Confluent error
        }
        throw RegistryException.of(ErrorCode.INVALID_VERSION, text);
    }
}
