package io.quire.journal.command;

import io.quire.journal.model.Subject;
import java.util.Map;

/** Create a KEK (refused when one of that name exists, deleted or not). */
public record CreateKek(String name, String kmsType, String kmsKeyId, Map<String, String> kmsProps, String doc,
                        boolean shared) implements Command {

    @Override
    public Subject subject() {
        return null;
    }

    @Override
    public CommandType type() {
        return CommandType.CREATE_KEK;
    }
}
