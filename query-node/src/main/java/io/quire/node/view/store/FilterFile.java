package io.quire.node.view.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The view store's absent-key filters ({@link AbsentKeys}) saved beside a checkpoint, or in the
 * store's own folder when it closes, so that a node whose view is installed from that snapshot, or
 * that opens its closed view again, has them from its first read instead of building them from
 * every key of its files (2,250,000 keys of the bench's million-registration journal took 5.9–9.0 s
 * on two cores, during which the node's catch-up read absent keys from RocksDB).
 *
 * <p>Filters copied after the checkpoint was taken, or after the store's last write, hold every
 * key it holds (keys go into them before they are written and never leave), so they are right for
 * it, and only for it: once the store has written anything more they lack those keys, and an
 * absent answer from them would be wrong. The store therefore reads the file once, when it opens,
 * and deletes it (and makes the deletion durable) before it writes anything. A file that does not
 * read back whole, with its checksum, as filters of the sizes and kinds this node uses is ignored,
 * and the filters are built as for any store that opens with data.
 */
final class FilterFile {

    static final String NAME = "quire-filters";
    private static final Logger LOG = LoggerFactory.getLogger(FilterFile.class);
    private static final int MAGIC = 0x51464c54; // "QFLT"
    private static final int FORMAT = 1;

    private FilterFile() {
    }

    /** Writes both filters, as {@link AbsentKeys#toBytes} gave them, into {@code dir}. */
    static void write(Path dir, byte[] keys, byte[] usages) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8 + keys.length + usages.length + 8);
        b.putInt(MAGIC).putInt(FORMAT).put(keys).put(usages);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putLong(crc.getValue());
        Path tmp = dir.resolve(NAME + ".incomplete");
        Files.write(tmp, b.array());
        Files.move(tmp, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Reads the filters saved in {@code dir} into {@code keys} and {@code usages} (new, empty ones)
     * and deletes the file; returns them, or null when there was none or it did not read back.
     * Fails when the file cannot be deleted: left there, it would be wrong once the store writes.
     */
    static AbsentKeys[] take(Path dir, AbsentKeys keys, AbsentKeys usages) {
        Path file = dir.resolve(NAME);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        boolean read;
        try {
            read = read(file, keys, usages);
            if (!read) {
                LOG.warn("{} does not hold filters of this node's sizes and kinds: the view builds its filters", file);
            }
        } catch (IOException e) {
            LOG.warn("cannot read {}: the view builds its filters", file, e);
            read = false;
        }
        try {
            Files.delete(file);
            try (FileChannel folder = FileChannel.open(dir, StandardOpenOption.READ)) {
                folder.force(true);
            }
        } catch (IOException e) {
            throw new ProcessorStateException("cannot delete " + file + " before the view writes", e);
        }
        return read ? new AbsentKeys[] {keys, usages} : null;
    }

    private static boolean read(Path file, AbsentKeys keys, AbsentKeys usages) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length < 16) {
            return false;
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 8);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.getLong(bytes.length - 8) != crc.getValue()) {
            return false;
        }
        b.limit(bytes.length - 8);
        return b.getInt() == MAGIC && b.getInt() == FORMAT && keys.readFrom(b) && usages.readFrom(b)
                && !b.hasRemaining();
    }
}
