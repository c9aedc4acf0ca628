package io.quire.node.view.snapshot;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.journal.view.Keys;
import io.quire.journal.view.Position;
import io.quire.node.view.store.ViewStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Snapshots of a node's view: a RocksDB checkpoint plus a manifest naming the journal (topic name
 * and Kafka topic id) and the offset and digest the checkpoint stands at. A fresh node started
 * from a snapshot copies it into place and lets the journal replay only what came after.
 */
public final class Snapshots {

    public static final String MANIFEST = "quire-snapshot.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        RocksDB.loadLibrary();
    }

    /** What a snapshot's manifest says (its file is this record as JSON). */
    public record Manifest(int format, long offset, String digest, String journalTopic, String topicId, String created,
                           long bytes) {
    }

    /** A snapshot just taken: its manifest and where it is (the admin answer: the manifest's fields and the path). */
    public record Taken(@JsonUnwrapped Manifest manifest, String path) {
    }

    private Snapshots() {
    }

    /** Checkpoints {@code store} into a new folder under {@code parent}, named after the offset it covers. */
    public static Taken create(ViewStore store, Path parent, String journalTopic, String topicId)
            throws IOException, RocksDBException {
        Files.createDirectories(parent);
        Path tmp = parent.resolve(".incomplete-" + UUID.randomUUID());
        store.checkpoint(tmp);
        Position position = readPosition(tmp);
        Manifest manifest = new Manifest(1, position.offset().value(), position.digestHex(), journalTopic, topicId,
                Instant.now().toString(), size(tmp));
        JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.resolve(MANIFEST).toFile(), manifest);
        Path target = parent.resolve(String.format("snapshot-%012d", position.offset().value()));
        if (Files.exists(target)) {
            Folders.deleteTree(tmp); // the same offset was snapshotted before: the same content
        } else {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        }
        return new Taken(manifest, target.toAbsolutePath().toString());
    }

    public static Manifest manifest(Path snapshot) throws IOException {
        Path file = snapshot.resolve(MANIFEST);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(snapshot + " is not a Quire snapshot (no " + MANIFEST + ")");
        }
        JsonNode j = JSON.readTree(file.toFile());
        int format = j.path("format").asInt(-1);
        if (format != 1) {
            throw new IllegalArgumentException(snapshot + ": unknown snapshot format " + format);
        }
        return new Manifest(format, j.path("offset").asLong(), j.path("digest").asText(),
                j.path("journalTopic").asText(), j.path("topicId").asText(), j.path("created").asText(),
                j.path("bytes").asLong());
    }

    /**
     * Installs {@code snapshot} as the view at {@code storeDir} after checking it belongs to this
     * journal: same topic name, same Kafka topic id (a re-created topic has another one), an offset
     * the journal has reached. Refuses to overwrite an existing view.
     */
    public static Manifest install(Path snapshot, Path storeDir, String journalTopic, String topicId, long journalEnd)
            throws IOException, RocksDBException {
        return install(snapshot, storeDir, journalTopic, topicId, journalEnd, false);
    }

    /** As above; {@code move} moves the files instead of copying them (a fetched snapshot the node owns). */
    public static Manifest install(Path snapshot, Path storeDir, String journalTopic, String topicId, long journalEnd,
                                   boolean move) throws IOException, RocksDBException {
        Manifest m = manifest(snapshot);
        if (!m.journalTopic().equals(journalTopic)) {
            throw new IllegalArgumentException("snapshot " + snapshot + " is of journal '" + m.journalTopic()
                    + "', this node reads '" + journalTopic + "'");
        }
        if (!m.topicId().equals(topicId)) {
            throw new IllegalArgumentException("snapshot " + snapshot + " is of topic id " + m.topicId()
                    + " but the journal now has topic id " + topicId + " (re-created?)");
        }
        if (m.offset() >= journalEnd) {
            throw new IllegalArgumentException("snapshot " + snapshot + " stands at offset " + m.offset()
                    + " but the journal ends at " + journalEnd);
        }
        if (Files.exists(storeDir)) {
            throw new IllegalStateException("the node already has a view at " + storeDir + "; a snapshot only "
                    + "bootstraps a fresh node");
        }
        Path tmp = storeDir.resolveSibling(storeDir.getFileName() + ".from-snapshot");
        Folders.deleteTree(tmp);
        Files.createDirectories(tmp);
        try (Stream<Path> files = Files.list(snapshot)) {
            for (Path f : files.toList()) {
                if (f.getFileName().toString().equals(MANIFEST)) {
                    continue;
                }
                if (move) {
                    Files.move(f, tmp.resolve(f.getFileName()));
                } else {
                    Files.copy(f, tmp.resolve(f.getFileName()));
                }
            }
        }
        Position position = readPosition(tmp);
        if (position.offset().value() != m.offset() || !position.digestHex().equals(m.digest())) {
            Folders.deleteTree(tmp);
            throw new IllegalStateException("snapshot " + snapshot + " does not match its manifest (offset "
                    + position.offset() + ", digest " + position.digestHex() + ")");
        }
        Files.move(tmp, storeDir, StandardCopyOption.ATOMIC_MOVE);
        return m;
    }

    private static Position readPosition(Path db) throws RocksDBException {
        try (Options o = new Options(); RocksDB r = RocksDB.openReadOnly(o, db.toAbsolutePath().toString())) {
            byte[] b = r.get(Keys.POSITION);
            return b == null ? Position.GENESIS : Position.decode(b);
        }
    }

    /** Bytes of the files under {@code dir}. */
    public static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }
}
