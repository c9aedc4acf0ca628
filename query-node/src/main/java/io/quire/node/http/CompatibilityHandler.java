package io.quire.node.http;

import io.quire.client.RegisterRequest;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.node.api.Responses;
import io.quire.node.error.RegistryException;
import io.quire.node.service.CompatibilityChecks;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/** {@code /compatibility/subjects/{s}/versions[/{v}]}: would this schema be accepted. */
final class CompatibilityHandler {

    private final CompatibilityChecks checks;

    CompatibilityHandler(CompatibilityChecks checks) {
        this.checks = checks;
    }

    void againstVersion(RoutingContext ctx) {
        check(ctx, true);
    }

    void againstAll(RoutingContext ctx) {
        check(ctx, false);
    }

    private void check(RoutingContext ctx, boolean oneVersion) {
        RegisterRequest req = ApiJson.body(ctx, RegisterRequest.class);
        boolean verbose = Params.flag(ctx, "verbose");
        String levelParam = ctx.queryParams().get("level");
        CompatibilityLevel level = null;
        if (levelParam != null && !levelParam.isEmpty()) {
            level = CompatibilityLevel.parse(levelParam).orElseThrow(() ->
                    RegistryException.of(ErrorCode.INVALID_COMPATIBILITY_LEVEL));
        }
        Async.reply(ctx, checks.checkCompatibility(Params.subject(ctx), oneVersion ? Params.version(ctx) : null, req,
                        level),
                (c, messages) -> ApiJson.ok(c, body(messages, verbose)));
    }

    private static Responses.Compatibility body(List<String> messages, boolean verbose) {
        return new Responses.Compatibility(messages.isEmpty(), verbose ? messages : null);
    }
}
