package io.quire.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.client.RegisterRequest;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.LintConfig;
import io.quire.journal.model.Subject;
import io.quire.node.error.RegistryException;
import io.quire.node.service.Linting;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /lint[?subject=s]}: the body of a registration, plus an optional {@code lint} config;
 * 200 with {@code {"refused": …, "violations": [{"rule", "path", "message"}], "rules": […]}}.
 */
final class LintHandler {

    private final Linting linting;

    LintHandler(Linting linting) {
        this.linting = linting;
    }

    void lint(RoutingContext ctx) {
        RegisterRequest schema = ApiJson.body(ctx, RegisterRequest.class);
        JsonNode raw = ApiJson.body(ctx, JsonNode.class).get("lint");
        LintConfig config;
        try {
            config = raw == null || raw.isNull() ? null : ApiJson.MAPPER.treeToValue(raw, LintConfig.class);
        } catch (Exception e) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, "Invalid lint config: " + e.getMessage());
        }
        String subject = Params.text(ctx, "subject");
        Async.reply(ctx, linting.lint(schema, config, subject == null ? null : Subject.of(subject)), ApiJson::ok);
    }
}
