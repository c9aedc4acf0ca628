package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.InvalidSchemaException;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renders every failure as {@code {"error_code": N, "message": "..."}}; the one place that does.
 * A refusal ({@link RegistryException}) shows its message, cleaned of anything that looks like a
 * Java class name; anything else is an unexpected failure: logged once here with its stack and a
 * reference number, and answered with that reference only.
 */
final class FailureHandler implements Handler<RoutingContext> {

    private static final Logger LOG = LoggerFactory.getLogger(FailureHandler.class);
    private static final AtomicLong REFERENCES = new AtomicLong();

    private final int incompatibleErrorCode;

    /** @param incompatibleErrorCode the {@code error_code} an incompatible schema is answered with (409 or 40901) */
    FailureHandler(int incompatibleErrorCode) {
        this.incompatibleErrorCode = incompatibleErrorCode;
    }

    @Override
    public void handle(RoutingContext ctx) {
        Throwable failure = ctx.failure();
        while (failure instanceof CompletionException && failure.getCause() != null) {
            failure = failure.getCause();
        }
        if (ctx.response().ended() || ctx.response().closed()) {
            if (failure != null && !(failure instanceof RegistryException)) {
                LOG.error("failure after the response of {} {} was sent", ctx.request().method(), safePath(ctx), failure);
            }
            return;
        }
        if (failure instanceof RegistryException r) {
            if (r.retryAfterSeconds() > 0) {
                ctx.response().putHeader("Retry-After", Integer.toString(r.retryAfterSeconds()));
            }
            if (r.error().httpStatus >= 500 && r.getCause() != null) {
                LOG.error("{} {} answered {}: {}", ctx.request().method(), safePath(ctx), r.error().code,
                        r.getMessage(), r.getCause());
            }
            int code = r.error() == ErrorCode.INCOMPATIBLE_SCHEMA ? incompatibleErrorCode : r.error().code;
            ApiJson.send(ctx, r.error().httpStatus, new ApiJson.ErrorBody(code, Messages.clean(r.getMessage())));
            return;
        }
        if (failure instanceof InvalidSchemaException e) {
            ApiJson.send(ctx, ErrorCode.INVALID_SCHEMA.httpStatus,
                    new ApiJson.ErrorBody(ErrorCode.INVALID_SCHEMA.code, Messages.clean(e.getMessage())));
            return;
        }
        int status = failure instanceof HttpException h ? h.getStatusCode() : ctx.statusCode();
        if (failure == null || failure instanceof HttpException && status < 500) {
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
                        new ApiJson.ErrorBody(code.code, msg));
                return;
            }
            if (status >= 400 && status < 500) {
                ApiJson.send(ctx, status, new ApiJson.ErrorBody(status, "HTTP " + status));
                return;
            }
        }
        long reference = REFERENCES.incrementAndGet();
        LOG.error("unexpected failure #{} on {} {}", reference, ctx.request().method(), safePath(ctx), failure);
        ApiJson.send(ctx, 500, new ApiJson.ErrorBody(ErrorCode.STORE_ERROR.code,
                ErrorCode.STORE_ERROR.message("internal error #" + reference + " (logged on the node)")));
    }

    private static String safePath(RoutingContext ctx) {
        String path = ctx.request().path();
        return path == null ? "?" : Messages.clean(path.length() > 200 ? path.substring(0, 200) + "…" : path);
    }
}
