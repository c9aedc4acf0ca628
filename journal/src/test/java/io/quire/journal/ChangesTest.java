package io.quire.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quire.journal.view.Changes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChangesTest {

    /** Random writes over a few keys, small and large batches alike, against a map that keeps first places and last values. */
    @Test
    void oneEntryPerKeyInTheOrderOfFirstWritesWithLastValues() {
        Random random = new Random(42);
        for (int round = 0; round < 500; round++) {
            int writes = 1 + random.nextInt(round % 2 == 0 ? 20 : 80);
            int keys = 1 + random.nextInt(40);
            Changes changes = new Changes();
            Map<ByteBuffer, byte[]> expected = new LinkedHashMap<>();
            for (int i = 0; i < writes; i++) {
                byte[] key = ("k" + random.nextInt(keys)).getBytes();
                byte[] value = random.nextInt(4) == 0 ? null : new byte[] {(byte) i};
                if (value == null) {
                    changes.delete(key.clone());
                } else {
                    changes.put(key.clone(), value);
                }
                expected.put(ByteBuffer.wrap(key), value);
            }
            List<Changes.Entry> actual = changes.entries();
            List<Map.Entry<ByteBuffer, byte[]>> want = new ArrayList<>(expected.entrySet());
            assertEquals(want.size(), actual.size(), "round " + round);
            for (int i = 0; i < want.size(); i++) {
                assertArrayEquals(want.get(i).getKey().array(), actual.get(i).key(), "round " + round);
                assertArrayEquals(want.get(i).getValue(), actual.get(i).value(), "round " + round);
            }
        }
    }
}
