package io.quire.node.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A body written by a worker thread through {@link ResponseStream} to a real HTTP connection. */
class ResponseStreamTest {

    private final Vertx vertx = Vertx.vertx();
    private final ExecutorService worker = Executors.newSingleThreadExecutor();
    private HttpServer server;

    @AfterEach
    void close() throws Exception {
        worker.shutdownNow();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** What a test writes to the stream on the worker. */
    private interface Body {
        void write(ResponseStream out) throws IOException;
    }

    /**
     * Serves every request by running {@code body} on the worker with a fresh stream; {@code outcome}
     * gets what the writer threw, or null when it returned.
     */
    private int serve(Body body, CompletableFuture<Throwable> outcome) throws Exception {
        server = vertx.createHttpServer().requestHandler(req -> {
            Context context = vertx.getOrCreateContext();
            HttpServerResponse response = req.response();
            worker.execute(() -> {
                try {
                    body.write(new ResponseStream(response, context, 5_000));
                    outcome.complete(null);
                } catch (IOException e) {
                    outcome.complete(e);
                }
            });
        });
        return server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .actualPort();
    }

    private static HttpURLConnection get(int port) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/").toURL().openConnection();
        c.setReadTimeout(20_000);
        return c;
    }

    @Test
    void aBodyLargerThanWhatMayBeInFlightArrivesWholeAndInOrderThroughASlowReader() throws Exception {
        byte[] data = new byte[ResponseStream.CHUNK * (ResponseStream.IN_FLIGHT * 8) + 12_345];
        new Random(7).nextBytes(data);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        int port = serve(out -> {
            for (int off = 0; off < data.length; off += 1000) {
                out.write(data, off, Math.min(1000, data.length - off));
            }
            out.close();
        }, outcome);
        HttpURLConnection c = get(port);
        assertEquals(200, c.getResponseCode());
        assertEquals("chunked", c.getHeaderField("Transfer-Encoding"));
        byte[] got;
        try (InputStream in = c.getInputStream()) {
            Thread.sleep(500); // the writer fills what may be in flight and waits
            assertTrue(!outcome.isDone(), "the writer waits for the reader instead of buffering the whole body");
            got = in.readAllBytes();
        }
        assertArrayEquals(data, got);
        assertNull(outcome.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aReaderThatGoesAwayFailsTheWriterInsteadOfHoldingIt() throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        byte[] block = new byte[64 * 1024];
        int port = serve(out -> {
            for (int i = 0; i < 100_000; i++) { // 6 GiB: far more than any socket buffer holds
                out.write(block);
            }
            out.close();
        }, outcome);
        HttpURLConnection c = get(port);
        try (InputStream in = c.getInputStream()) {
            assertEquals(4096, in.readNBytes(4096).length);
        }
        c.disconnect();
        Throwable failed = outcome.get(15, TimeUnit.SECONDS);
        assertNotNull(failed, "the writer learns the reader left");
    }

    @Test
    void anAbortedBodyIsSeenAsIncompleteByTheReader() throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        int port = serve(out -> {
            out.write(new byte[ResponseStream.CHUNK + 10]);
            out.flush();
            out.abort();
        }, outcome);
        HttpURLConnection c = get(port);
        assertEquals(200, c.getResponseCode());
        try (InputStream in = c.getInputStream()) {
            assertThrows(IOException.class, in::readAllBytes, "a chunked body without its last chunk");
        }
        assertNull(outcome.get(10, TimeUnit.SECONDS));
    }
}
