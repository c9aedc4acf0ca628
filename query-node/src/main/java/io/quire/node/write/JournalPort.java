package io.quire.node.write;

import io.quire.journal.command.Command;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.Principal;
import java.util.concurrent.CompletableFuture;

/**
 * Where the services send a command: it completes once this node has applied it, with the
 * outcome and the journal offset. {@link CommandSubmitter} is the real one (Kafka); tests use one
 * over the real applier in memory, so the write rules need no broker.
 */
public interface JournalPort {

    CompletableFuture<Applied> submit(Command command, Principal principal);

    /** A command that copies record {@code source} of a followed registry's log (see {@code SetFollow}). */
    default CompletableFuture<Applied> submit(Command command, Principal principal,
                                              Envelope.Source source) {
        if (source == null) {
            return submit(command, principal);
        }
        throw new UnsupportedOperationException("this journal does not carry copied records");
    }
}
