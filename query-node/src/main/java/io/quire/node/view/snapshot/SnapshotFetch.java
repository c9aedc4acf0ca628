package io.quire.node.view.snapshot;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches a running node's snapshot over HTTP ({@code GET /admin/snapshot/archive}, admin role)
 * into a local folder, logging progress every two seconds, for a fresh node whose operator gave
 * {@code --bootstrap-snapshot} as a URL. No access to the other node's file system is needed.
 */
public final class SnapshotFetch {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotFetch.class);
    public static final String PATH = "/admin/snapshot/archive";

    private SnapshotFetch() {
    }

    /** Whether a {@code --bootstrap-snapshot} value names a node to fetch from rather than a folder. */
    public static boolean isUrl(String value) {
        return value.startsWith("http://") || value.startsWith("https://");
    }

    /** The archive URL of a node given by its base URL (or by the archive URL itself). */
    static URI archiveUri(String value) {
        String base = value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
        return URI.create(base.endsWith(PATH) ? base : base + PATH);
    }

    /**
     * Downloads and unpacks the archive into {@code target} (which must not exist).
     *
     * @param authorization the {@code Authorization} header to send, or empty
     */
    public static void fetch(String url, String authorization, Path target) throws IOException, InterruptedException {
        URI uri = archiveUri(url);
        // HttpURLConnection rather than java.net.http.HttpClient: one large body read as a blocking
        // stream. The HttpClient's InputStream handler delivered a 274 MB archive at 19-35 MB/s over
        // loopback (7.7 s) where unpacking it from a local file takes 1.7 s (docs/capacity-planning.md).
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
        c.setConnectTimeout(10_000);
        c.setReadTimeout((int) Duration.ofMinutes(30).toMillis());
        c.setInstanceFollowRedirects(false);
        if (!authorization.isBlank()) {
            c.setRequestProperty("Authorization", authorization.strip());
        }
        long t0 = System.nanoTime();
        LOG.info("fetching a snapshot from {}", uri);
        try {
            int status = c.getResponseCode();
            if (status != 200) {
                String body;
                try (InputStream in = c.getErrorStream() != null ? c.getErrorStream() : InputStream.nullInputStream()) {
                    body = new String(in.readNBytes(2000), StandardCharsets.UTF_8);
                }
                throw new IOException("snapshot fetch from " + uri + " answered " + status + ": " + body);
            }
            // The source compresses while it sends (chunked, no length): progress counts unpacked bytes
            // against the size of its files.
            long total = headerLong(c, "X-Quire-Snapshot-Raw-Bytes");
            LOG.info("snapshot taken at the source after {} ms: {} bytes of files to fetch", (System.nanoTime() - t0)
                    / 1_000_000, total);
            Progress progress = new Progress(total, System.nanoTime());
            try (Counting in = new Counting(new BufferedInputStream(c.getInputStream(), 1 << 20))) {
                SnapshotArchive.read(in, target, progress::unpacked);
                LOG.info("snapshot fetched from {}: {} bytes ({} unpacked) in {} ms (offset {})", uri, in.read,
                        progress.done, (System.nanoTime() - t0) / 1_000_000,
                        Optional.ofNullable(c.getHeaderField("X-Quire-Snapshot-Offset")).orElse("?"));
            }
        } finally {
            c.disconnect();
        }
    }

    private static long headerLong(HttpURLConnection c, String name) {
        try {
            return Long.parseLong(c.getHeaderField(name));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** Logs how far along the unpacking is, every two seconds. */
    private static final class Progress {

        private final long total;
        private final long started;
        private long done;
        private long lastLog;

        Progress(long total, long started) {
            this.total = total;
            this.started = started;
            this.lastLog = started;
        }

        void unpacked(long n) {
            done += n;
            long now = System.nanoTime();
            if (now - lastLog >= 2_000_000_000L) {
                lastLog = now;
                LOG.info(ProgressLine.of("snapshot fetch", done, total, now - started, "bytes"));
            }
        }
    }

    /** Counts the (compressed) bytes read. */
    private static final class Counting extends FilterInputStream {

        private long read;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                read++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                read += n;
            }
            return n;
        }
    }
}
