package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.TreeMap;

/**
 * A key encryption key as the DEK registry knows it: a name for a key that lives in a KMS the
 * registry never sees ({@code kmsType}, {@code kmsKeyId}, {@code kmsProps}). {@code shared} says
 * the registry may itself use the KMS to make DEKs. {@code ts} is the journal time of its last
 * change.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Kek(String name, String kmsType, String kmsKeyId, Map<String, String> kmsProps, String doc,
                  boolean shared, long ts, boolean deleted) {

    /** The most characters a key name may have, as in Confluent's registry. */
    public static final int NAME_MAX_LENGTH = 64;

    public Kek {
        kmsProps = kmsProps == null ? null : new TreeMap<>(kmsProps);
    }

    /**
     * A letter or '_' first, then letters, digits, '_' or '-', at most 64 characters, as
     * Confluent's registry checks a key name.
     */
    public static boolean isValidName(String name) {
        if (name == null || name.isEmpty() || name.length() > NAME_MAX_LENGTH) {
            return false;
        }
        char first = name.charAt(0);
        if (!Character.isLetter(first) && first != '_') {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '_' && c != '-') {
                return false;
            }
        }
        return true;
    }

    public Kek withDeleted(boolean nowDeleted, long at) {
        return new Kek(name, kmsType, kmsKeyId, kmsProps, doc, shared, at, nowDeleted);
    }
}
