package io.quire.journal.command;

import io.quire.journal.model.Context;
import io.quire.journal.model.Subject;

/** Remove a named context that no subject uses any more ({@code DELETE /contexts/{context}}). */
public record DeleteContext(Context context) implements Command {

    /** The audit trail names the context as its qualifier, {@code :.ctx:}. */
    @Override
    public Subject subject() {
        return context == null || context.isDefault() ? null : context.settingsSubject();
    }

    @Override
    public CommandType type() {
        return CommandType.DELETE_CONTEXT;
    }
}
