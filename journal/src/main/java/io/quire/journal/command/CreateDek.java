package io.quire.journal.command;

import io.quire.journal.model.DekAlgorithm;
import io.quire.journal.model.Subject;

/**
 * Store a DEK version under a live KEK, refused when that version exists, deleted or not
 * ({@code version} null: 1; {@code algorithm} null: AES256_GCM).
 */
public record CreateDek(String kekName, String dekSubject, Integer version, DekAlgorithm algorithm,
                        String encryptedKeyMaterial) implements Command {

    @Override
    public Subject subject() {
        return Subject.isValid(dekSubject) ? Subject.of(dekSubject) : null;
    }

    @Override
    public CommandType type() {
        return CommandType.CREATE_DEK;
    }
}
