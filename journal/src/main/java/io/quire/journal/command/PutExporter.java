package io.quire.journal.command;

import io.quire.journal.model.Subject;
import java.util.List;
import java.util.Map;

/**
 * Create an exporter ({@code create}: refused when one has the name) or change one (refused unless
 * it exists and is paused, as Confluent's registry does). A null field keeps what the exporter has.
 */
public record PutExporter(String name, boolean create, String contextType, String context, List<String> subjects,
                          String subjectRenameFormat, Map<String, String> config) implements Command {

    @Override
    public CommandType type() {
        return CommandType.PUT_EXPORTER;
    }

    @Override
    public Subject subject() {
        return null;
    }
}
