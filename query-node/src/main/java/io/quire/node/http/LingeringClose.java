package io.quire.node.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import java.util.concurrent.TimeUnit;

/**
 * Closes an HTTP/1 connection the way RFC 9112 §9.6 asks when a request is still arriving: the
 * answer is flushed, our side is shut for writing, and what the client still sends is read and
 * discarded (up to {@link #MAX_DISCARD_BYTES}, for at most {@link #LINGER_MILLIS}) before the
 * socket closes. Without it, a close while the client is still sending a body (a request refused
 * for its size or its framing, a header block over the limit) resets the connection, and the
 * client sees a broken pipe instead of the JSON error it was sent.
 *
 * <p>It sits between Netty's request decoder and Vert.x's connection handler, so it sees whether
 * a request is in progress (a head seen, its last content not yet) and every close Vert.x asks for.
 * A close with no request in progress (keep-alive timeouts, a node shutting down) is not delayed.
 * The server must set its pipeline up when a connection opens, not on its first bytes (no h2c
 * detection), so that the handler sees the first request too.
 */
final class LingeringClose extends ChannelDuplexHandler {

    static final String NAME = "quire-lingering-close";
    static final long LINGER_MILLIS = 2_000;
    static final long MAX_DISCARD_BYTES = 64L << 20;

    private boolean requestInProgress;
    private boolean lingering;
    private long discarded;

    /**
     * Adds the handler to an HTTP/1 connection of a Vert.x server (from its connection handler).
     * Vert.x has no public hook for the pipeline: the connection's implementation class gives it.
     */
    static void install(HttpConnection connection) {
        if (connection instanceof ConnectionBase base) {
            ChannelPipeline pipeline = base.channelHandlerContext().pipeline();
            if (pipeline.get("httpDecoder") != null && pipeline.get(NAME) == null) {
                pipeline.addAfter("httpDecoder", NAME, new LingeringClose());
            }
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (lingering) {
            discarded += msg instanceof ByteBufHolder h ? h.content().readableBytes()
                    : msg instanceof ByteBuf b ? b.readableBytes() : 0;
            ReferenceCountUtil.release(msg);
            if (discarded > MAX_DISCARD_BYTES) {
                ctx.close();
            }
            return;
        }
        if (msg instanceof HttpObject o) {
            if (o.decoderResult().isFailure()) {
                requestInProgress = true; // the decoder now skips the rest of what the client sends
            } else if (msg instanceof LastHttpContent) {
                requestInProgress = false;
            } else if (msg instanceof HttpRequest) {
                requestInProgress = true;
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (lingering || !requestInProgress || !ctx.channel().isActive()
                || !(ctx.channel() instanceof DuplexChannel duplex)) {
            ctx.close(promise);
            return;
        }
        lingering = true;
        ctx.channel().closeFuture().addListener(f -> promise.trySuccess());
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) written -> {
            if (!written.isSuccess()) {
                ctx.close();
                return;
            }
            duplex.shutdownOutput().addListener(shut -> {
                ctx.channel().config().setAutoRead(true);
                ctx.read();
            });
            ctx.executor().schedule(() -> {
                ctx.close();
            }, LINGER_MILLIS, TimeUnit.MILLISECONDS);
        });
    }
}
