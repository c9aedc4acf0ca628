package io.quire.journal.command;

import io.quire.journal.model.Subject;
import java.util.Map;

/** Change a live KEK's KMS properties, doc or shared flag (null: kept); its KMS and key id stay. */
public record UpdateKek(String name, Map<String, String> kmsProps, String doc, Boolean shared) implements Command {

    @Override
    public Subject subject() {
        return null;
    }

    @Override
    public CommandType type() {
        return CommandType.UPDATE_KEK;
    }
}
