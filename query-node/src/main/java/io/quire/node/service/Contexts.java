package io.quire.node.service;

import io.quire.journal.command.DeleteContext;
import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Principal;
import io.quire.journal.outcome.ContextDeleted;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** {@code GET /contexts} and {@code DELETE /contexts/{context}}. */
public final class Contexts {

    private final ViewAccess access;
    private final WritePath path;

    Contexts(ViewAccess access, WritePath path) {
        this.access = access;
        this.path = path;
    }

    /** The contexts, the default one ({@code "."}) first, then the named ones in name order. */
    public List<String> list() {
        List<String> out = new ArrayList<>();
        out.add(Context.DEFAULT.name());
        access.view().contexts().forEach(c -> out.add(c.name()));
        return out;
    }

    /**
     * Deletes a named context once no subject of it is left (soft-deleted ones count): refused
     * here, with the applier's own rule, before anything is journaled.
     */
    public CompletableFuture<Written<String>> delete(String raw, Principal principal) {
        Context context;
        try {
            context = Context.parse(raw);
        } catch (IllegalArgumentException e) {
            throw RegistryException.of(ErrorCode.BAD_REQUEST, e.getMessage());
        }
        DeleteContext command = new DeleteContext(context);
        return path.submit(command, principal, ContextDeleted.class, d -> d.context().name());
    }
}
