package io.quire.node.http;

import io.quire.client.ChangeSetRequest;
import io.quire.journal.model.ErrorCode;
import io.quire.node.error.RegistryException;
import io.quire.node.security.Caller;
import io.quire.node.security.Role;
import io.quire.node.service.ChangeSets;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /changesets}: changes to several subjects, applied as one. The caller needs the role
 * each step needs on its own route, for every subject it names: a writer registers and soft-deletes,
 * an admin also sets config and deletes for good.
 */
final class ChangeSetsHandler {

    private final ChangeSets changeSets;

    ChangeSetsHandler(ChangeSets changeSets) {
        this.changeSets = changeSets;
    }

    void apply(RoutingContext ctx) {
        ChangeSetRequest req = ApiJson.body(ctx, ChangeSetRequest.class);
        Caller caller = Params.caller(ctx);
        for (ChangeSetRequest.Step s : req.steps()) {
            if (s == null || s.subject() == null) {
                continue; // the service refuses it with its step named
            }
            Role needed = s.config() != null || s.deletesConfig() || (s.delete() != null && s.delete().permanent()) ? Role.ADMIN : Role.WRITER;
            if (!caller.role().includes(needed)) {
                throw new RegistryException(ErrorCode.FORBIDDEN, "Forbidden: " + caller.name() + " has role "
                        + caller.role() + ", a change of subject '" + s.subject() + "' needs " + needed);
            }
            if (!caller.mayTouch(s.subject())) {
                throw new RegistryException(ErrorCode.FORBIDDEN, "Forbidden: " + caller.name()
                        + " may not act on subject '" + s.subject() + "'");
            }
        }
        Async.reply(ctx, changeSets.apply(req, caller.principal()), (c, w) -> ApiJson.written(c, w.offset(), w.value()));
    }
}
