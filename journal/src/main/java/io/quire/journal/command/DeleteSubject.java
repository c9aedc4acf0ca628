package io.quire.journal.command;

/** Soft-delete every live version of a subject, or permanently remove a soft-deleted subject. */
public record DeleteSubject(String subject, boolean permanent) implements Command {

    @Override
    public CommandType type() {
        return CommandType.DELETE_SUBJECT;
    }
}
