package io.quire.node.view.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The snapshot archive format: a round trip keeps every byte; hostile or broken archives are refused. */
class SnapshotArchiveTest {

    static Path snapshotFolder() throws IOException {
        Path dir = Files.createTempDirectory("quire-archive").resolve("snapshot-000000000041");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(Snapshots.MANIFEST), "{\"format\":1,\"offset\":41,\"digest\":\"d\","
                + "\"journalTopic\":\"t\",\"topicId\":\"id\",\"created\":\"now\",\"bytes\":3}");
        byte[] big = new byte[300_000];
        new Random(3).nextBytes(big);
        Files.write(dir.resolve("000012.sst"), big);
        Files.write(dir.resolve("CURRENT"), "MANIFEST-000001\n".getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("empty.log"), new byte[0]);
        return dir;
    }

    @Test
    void aRoundTripKeepsEveryFile() throws Exception {
        Path from = snapshotFolder();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long raw = SnapshotArchive.write(from, out);
        Path to = Files.createTempDirectory("quire-archive-to").resolve("fetched");
        SnapshotArchive.read(new ByteArrayInputStream(out.toByteArray()), to);
        long expected = 0;
        for (String f : new String[] {Snapshots.MANIFEST, "000012.sst", "CURRENT", "empty.log"}) {
            assertArrayEquals(Files.readAllBytes(from.resolve(f)), Files.readAllBytes(to.resolve(f)), f);
            expected += Files.size(from.resolve(f));
        }
        assertEquals(expected, raw);
        assertEquals(41, Snapshots.manifest(to).offset());
    }

    @Test
    void aTruncatedArchiveIsRefused() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SnapshotArchive.write(snapshotFolder(), out);
        byte[] cut = Arrays.copyOf(out.toByteArray(), out.size() / 2);
        Path to = Files.createTempDirectory("quire-archive-cut").resolve("fetched");
        assertThrows(IOException.class, () -> SnapshotArchive.read(new ByteArrayInputStream(cut), to));
    }

    static byte[] archiveNaming(String name) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DataOutputStream data = new DataOutputStream(new ZstdOutputStream(out))) {
            data.write(SnapshotArchive.MAGIC);
            byte[] n = name.getBytes(StandardCharsets.UTF_8);
            data.writeShort(n.length);
            data.write(n);
            data.writeLong(1);
            data.write('x');
            data.writeShort(0);
        }
        return out.toByteArray();
    }

    @Test
    void namesOutsideTheFolderAreRefused() throws Exception {
        for (String name : new String[] {"../escape", "a/b", "..", ".hidden", "a\\b"}) {
            Path to = Files.createTempDirectory("quire-archive-bad").resolve("fetched");
            IOException e = assertThrows(IOException.class,
                    () -> SnapshotArchive.read(new ByteArrayInputStream(archiveNaming(name)), to), name);
            assertTrue(e.getMessage().contains("outside its folder"), e.getMessage());
            assertTrue(Files.notExists(to.resolveSibling("escape")), name);
        }
    }

    @Test
    void somethingElseIsNotAnArchive() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZstdOutputStream z = new ZstdOutputStream(out)) {
            z.write("PK\u0003\u0004 not ours".getBytes(StandardCharsets.UTF_8));
        }
        Path to = Files.createTempDirectory("quire-archive-other").resolve("fetched");
        IOException e = assertThrows(IOException.class,
                () -> SnapshotArchive.read(new ByteArrayInputStream(out.toByteArray()), to));
        assertTrue(e.getMessage().contains("not a Quire snapshot archive"), e.getMessage());
    }
}
