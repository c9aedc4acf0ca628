package io.quire.node.http;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quire.journal.model.ErrorCode;
import io.quire.node.service.RegistryException;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Renders every failure as {@code {"error_code": N, "message": "..."}}; the one place that does. */
final class FailureHandler implements Handler<RoutingContext> {

    private static final Logger LOG = LoggerFactory.getLogger(FailureHandler.class);

    record ErrorBody(@JsonProperty("error_code") int errorCode, String message) {
    }

    @Override
    public void handle(RoutingContext ctx) {
        Throwable failure = ctx.failure();
        while (failure instanceof CompletionException && failure.getCause() != null) {
            failure = failure.getCause();
        }
        if (ctx.response().ended()) {
            return;
        }
        if (failure instanceof RegistryException r) {
            ApiJson.send(ctx, r.error().httpStatus, new ErrorBody(r.error().code, r.getMessage()));
            return;
        }
        if (failure == null) {
            int status = ctx.statusCode();
            ErrorCode code = switch (status) {
                case 404 -> ErrorCode.NOT_FOUND;
                case 405 -> ErrorCode.METHOD_NOT_ALLOWED;
                case 413 -> ErrorCode.SCHEMA_TOO_LARGE;
                case 400 -> ErrorCode.BAD_REQUEST;
                default -> null;
            };
            if (code != null) {
                String msg = code == ErrorCode.SCHEMA_TOO_LARGE ? code.message("request body over the limit")
                        : code.message("Bad request");
                ApiJson.send(ctx, code == ErrorCode.SCHEMA_TOO_LARGE ? 422 : code.httpStatus,
                        new ErrorBody(code.code, msg));
                return;
            }
        }
        LOG.error("unexpected failure on {} {}", ctx.request().method(), ctx.request().path(), failure);
        ApiJson.send(ctx, 500, new ErrorBody(ErrorCode.STORE_ERROR.code,
                ErrorCode.STORE_ERROR.message(failure == null ? "status " + ctx.statusCode() : failure.toString())));
    }
}
