package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.InvalidSchemaException;
import io.vertx.core.Handler;
import io.vertx.core.VertxException;
import io.vertx.core.http.HttpClosedException;
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
        if (ctx.response().ended() || ctx.response().closed() || failure instanceof HttpClosedException) {
            if (failure instanceof HttpClosedException && !ctx.response().ended()) {
                LOG.warn("{} {}: the client closed the connection before the request was answered",
                        ctx.request().method(), safePath(ctx));
            } else if (brokenRequestStream(ctx, failure)) {
                // the answer is out (a body over the limit, say) and the rest of the body came badly framed
                LOG.debug("{} {}: the request stream broke after the answer", ctx.request().method(), safePath(ctx));
            } else if (failure != null && !(failure instanceof RegistryException)) {
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
        // A 4xx the router or the body reader chose: no route for the path (404) or the method (405),
        // a body over the limit (413), a request it could not take (400: no Host header, or the
        // body's chunked framing broken, which arrives here as the decoder's own exception).
        int status = failure instanceof HttpException h ? h.getStatusCode() : ctx.statusCode();
        if (status == 200 && failure != null) {
            status = 400; // the body reader's mark of a request stream that broke while it was read
        }
        if (status >= 400 && status < 500) {
            clientError(ctx, status, failure);
            return;
        }
        long reference = REFERENCES.incrementAndGet();
        LOG.error("unexpected failure #{} on {} {}", reference, ctx.request().method(), safePath(ctx), failure);
        ApiJson.send(ctx, 500, new ApiJson.ErrorBody(ErrorCode.STORE_ERROR.code,
                ErrorCode.STORE_ERROR.message("internal error #" + reference + " (logged on the node)")));
    }

    /**
     * The request's own stream failed while the body was read: the client went away, or its framing
     * broke (the body reader fails the request with status 400 for a decoder's error, 200 for others).
     */
    private static boolean brokenRequestStream(RoutingContext ctx, Throwable failure) {
        return failure instanceof HttpClosedException || failure != null && !(failure instanceof RegistryException)
                && !(failure instanceof HttpException) && (ctx.statusCode() == 200 || ctx.statusCode() == 400);
    }

    private static void clientError(RoutingContext ctx, int status, Throwable failure) {
        switch (status) {
            case 404 -> send(ctx, 404, ErrorCode.NOT_FOUND.code, ErrorCode.NOT_FOUND.message());
            case 405 -> send(ctx, 405, ErrorCode.METHOD_NOT_ALLOWED.code, ErrorCode.METHOD_NOT_ALLOWED.message());
            case 413 -> send(ctx, 422, ErrorCode.SCHEMA_TOO_LARGE.code,
                    ErrorCode.SCHEMA_TOO_LARGE.message("request body over the limit"));
            case 400 -> {
                if (failure == null || failure instanceof HttpException) {
                    send(ctx, 400, ErrorCode.BAD_REQUEST.code, "Bad request");
                } else if (failure instanceof VertxException && failure.getMessage() != null) {
                    send(ctx, 400, ErrorCode.BAD_REQUEST.code, Messages.clean(failure.getMessage()));
                } else {
                    // the connection closes after this answer: the rest of the body cannot be framed
                    LOG.warn("{} {}: request body refused, its framing is malformed ({})", ctx.request().method(),
                            safePath(ctx), Messages.clean(String.valueOf(failure.getMessage())));
                    ctx.response().putHeader("Connection", "close");
                    send(ctx, 400, ErrorCode.BAD_REQUEST.code, "The request body could not be read: malformed framing");
                }
            }
            default -> send(ctx, status, status, "HTTP " + status);
        }
    }

    private static void send(RoutingContext ctx, int status, int code, String message) {
        ApiJson.send(ctx, status, new ApiJson.ErrorBody(code, message));
    }

    private static String safePath(RoutingContext ctx) {
        String path = ctx.request().path();
        return path == null ? "?" : Messages.clean(path.length() > 200 ? path.substring(0, 200) + "…" : path);
    }
}
