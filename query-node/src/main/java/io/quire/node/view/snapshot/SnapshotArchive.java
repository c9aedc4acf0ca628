package io.quire.node.view.snapshot;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.stream.Stream;

/**
 * A snapshot folder as one compressed stream, for a node that fetches another's snapshot over
 * HTTP: a Zstandard stream holding {@code QUIRE-SNAPSHOT 1\n}, then each file as its name
 * (2-byte length, UTF-8, no folders), its size (8 bytes) and its bytes, the manifest first, and a
 * name of length 0 to end. Reading refuses names with a path separator or a leading dot, files
 * beyond {@link #MAX_FILES}, and a stream that ends early.
 */
public final class SnapshotArchive {

    static final byte[] MAGIC = "QUIRE-SNAPSHOT 1\n".getBytes(StandardCharsets.US_ASCII);
    static final int MAX_FILES = 100_000;

    private SnapshotArchive() {
    }

    /** Writes {@code snapshot} (a folder made by {@link Snapshots#create}) to {@code out}; returns the bytes read. */
    public static long write(Path snapshot, OutputStream out) throws IOException {
        Snapshots.manifest(snapshot); // refuses a folder that is not a snapshot
        List<Path> files = new ArrayList<>();
        files.add(snapshot.resolve(Snapshots.MANIFEST));
        try (Stream<Path> all = Files.list(snapshot)) {
            all.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals(Snapshots.MANIFEST))
                    .sorted().forEach(files::add);
        }
        long total = 0;
        ZstdOutputStream z = new ZstdOutputStream(new BufferedOutputStream(out, 1 << 16), 1);
        DataOutputStream data = new DataOutputStream(z);
        data.write(MAGIC);
        byte[] buffer = new byte[1 << 16];
        for (Path f : files) {
            byte[] name = f.getFileName().toString().getBytes(StandardCharsets.UTF_8);
            long size = Files.size(f);
            data.writeShort(name.length);
            data.write(name);
            data.writeLong(size);
            try (InputStream in = Files.newInputStream(f)) {
                long left = size;
                while (left > 0) {
                    int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                    if (n < 0) {
                        throw new IOException(f + " shrank while it was archived");
                    }
                    data.write(buffer, 0, n);
                    left -= n;
                }
            }
            total += size;
        }
        data.writeShort(0);
        data.flush();
        z.close();
        return total;
    }

    /** Unpacks an archive from {@code in} into {@code target} (created; must not exist). */
    public static void read(InputStream in, Path target) throws IOException {
        read(in, target, n -> { });
    }

    /**
     * Unpacks an archive from {@code in} into {@code target} (created; must not exist), telling
     * {@code unpacked} each time more of the files' bytes are written.
     */
    public static void read(InputStream in, Path target, LongConsumer unpacked) throws IOException {
        Files.createDirectories(target.getParent());
        Files.createDirectory(target);
        DataInputStream data = new DataInputStream(new BufferedInputStream(new ZstdInputStream(in), 1 << 16));
        byte[] magic = data.readNBytes(MAGIC.length);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new IOException("not a Quire snapshot archive");
        }
        try {
            readFiles(data, target, unpacked);
        } catch (EOFException e) {
            throw new IOException("the snapshot archive ends early", e);
        }
        Snapshots.manifest(target);
    }

    private static void readFiles(DataInputStream data, Path target, LongConsumer unpacked)
            throws IOException {
        byte[] buffer = new byte[1 << 16];
        for (int count = 0; ; count++) {
            int length = data.readUnsignedShort();
            if (length == 0) {
                break;
            }
            if (count >= MAX_FILES) {
                throw new IOException("snapshot archive holds more than " + MAX_FILES + " files");
            }
            byte[] raw = new byte[length];
            data.readFully(raw);
            String name = new String(raw, StandardCharsets.UTF_8);
            if (name.contains("/") || name.contains("\\") || name.startsWith(".") || name.isBlank()) {
                throw new IOException("snapshot archive names a file '" + name + "' outside its folder");
            }
            long size = data.readLong();
            if (size < 0) {
                throw new IOException("snapshot archive gives file " + name + " a negative size");
            }
            try (OutputStream out = Files.newOutputStream(target.resolve(name))) {
                long left = size;
                while (left > 0) {
                    int n = data.read(buffer, 0, (int) Math.min(buffer.length, left));
                    if (n < 0) {
                        throw new EOFException("snapshot archive ends inside " + name);
                    }
                    out.write(buffer, 0, n);
                    left -= n;
                    unpacked.accept(n);
                }
            }
        }
    }
}
