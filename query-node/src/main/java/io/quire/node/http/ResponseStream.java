package io.quire.node.http;

import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A chunked HTTP response body written as a blocking {@link OutputStream} by a worker thread:
 * bytes are gathered into chunks of {@link #CHUNK} bytes and handed to the response on its event
 * loop, with at most {@link #IN_FLIGHT} chunks not yet written to the connection (the writer
 * waits for room), so a slow reader holds a few MiB, not the whole body. A closed connection
 * fails the next write.
 */
final class ResponseStream extends OutputStream {

    static final int CHUNK = 1 << 20;
    static final int IN_FLIGHT = 4;

    private final HttpServerResponse response;
    private final Context context;
    private final Semaphore room = new Semaphore(IN_FLIGHT);
    private final long stallMillis;
    private byte[] chunk = new byte[CHUNK];
    private int filled;
    private volatile Throwable failed;
    private long written;
    private boolean closed;

    /**
     * @param stallMillis how long the writer waits for the reader to take a chunk before it gives up
     */
    ResponseStream(HttpServerResponse response, Context context, long stallMillis) {
        this.response = response;
        this.context = context;
        this.stallMillis = stallMillis;
        context.runOnContext(v -> {
            response.setChunked(true);
            response.closeHandler(closed -> failed = new IOException("the client closed the connection"));
            response.exceptionHandler(e -> failed = e);
        });
    }

    @Override
    public void write(int b) throws IOException {
        if (filled == chunk.length) {
            send();
        }
        chunk[filled++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (filled == chunk.length) {
                send();
            }
            int n = Math.min(len, chunk.length - filled);
            System.arraycopy(b, off, chunk, filled, n);
            filled += n;
            off += n;
            len -= n;
        }
    }

    @Override
    public void flush() throws IOException {
        if (filled > 0) {
            send();
        }
    }

    /** Ends the response once every chunk is sent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        flush();
        awaitRoom(IN_FLIGHT);
        context.runOnContext(v -> response.end());
        room.release(IN_FLIGHT);
    }

    /** Closes the connection without ending the body, so the reader sees it is incomplete. */
    void abort() {
        context.runOnContext(v -> response.reset());
    }

    /** Bytes handed to the response so far. */
    long written() {
        return written;
    }

    private void send() throws IOException {
        awaitRoom(1);
        Buffer b = Buffer.buffer(filled == chunk.length ? chunk : Arrays.copyOf(chunk, filled));
        written += filled;
        chunk = new byte[CHUNK];
        filled = 0;
        context.runOnContext(v -> {
            try {
                response.write(b).onComplete(done -> {
                    if (done.failed()) {
                        failed = done.cause();
                    }
                    room.release();
                });
            } catch (RuntimeException e) { // the response is already closed
                failed = e;
                room.release();
            }
        });
    }

    private void awaitRoom(int permits) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(stallMillis);
        try {
            while (!room.tryAcquire(permits, 100, TimeUnit.MILLISECONDS)) {
                failIfFailed();
                if (System.nanoTime() > deadline) {
                    throw new IOException("the client took no data for " + stallMillis + " ms");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending", e);
        }
        failIfFailed();
    }

    private void failIfFailed() throws IOException {
        Throwable f = failed;
        if (f != null) {
            throw f instanceof IOException io ? io : new IOException(f);
        }
    }
}
