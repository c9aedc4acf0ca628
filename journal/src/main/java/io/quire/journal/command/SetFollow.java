package io.quire.journal.command;

import io.quire.journal.model.Subject;

/**
 * Start or stop following another registry's log ({@code source} names it, for example
 * {@code confluent:broker:9092/_schemas}). While a registry follows, commands that carry a source
 * position in their envelope are applied once each, in the source's order, and every other write
 * is refused. {@code skipTo} (≥ 0) marks source records up to that offset as dealt with: records
 * an operator chose to skip. Stopping is the cut-over: the registry is writable again.
 */
public record SetFollow(String source, boolean following, long skipTo) implements Command {

    @Override
    public CommandType type() {
        return CommandType.SET_FOLLOW;
    }

    @Override
    public Subject subject() {
        return null;
    }
}
