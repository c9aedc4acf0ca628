package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyOrderTest {

    /** The positions sorted as RocksDB's bytewise comparator orders their keys. */
    private static int[] expected(byte[][] keys) {
        Integer[] boxed = new Integer[keys.length];
        for (int i = 0; i < keys.length; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> Arrays.compareUnsigned(keys[a], keys[b]));
        return Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
    }

    /** The keys without repeats (the sort is given a group's distinct keys). */
    private static byte[][] distinct(List<byte[]> keys) {
        Set<String> seen = new HashSet<>();
        return keys.stream().filter(k -> seen.add(Arrays.toString(k))).toArray(byte[][]::new);
    }

    @Test
    void ordersRandomDigestsAsTheBytewiseComparatorDoes() {
        Random random = new Random(7);
        for (int n : new int[] {0, 1, 2, 23, 24, 25, 100, 5_000}) {
            List<byte[]> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byte[] k = new byte[34];
                random.nextBytes(k);
                k[0] = 'F';
                keys.add(k);
            }
            byte[][] array = distinct(keys);
            assertArrayEquals(expected(array), KeyOrder.order(array), "n=" + n);
        }
    }

    @Test
    void comparesWholeKeysWhereTheFirstEightBytesAreEqual() {
        // subject names that share their first seven characters, and keys shorter than eight bytes
        // beside keys that continue with zero bytes (the head pads with zeros, the order does not)
        Random random = new Random(11);
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            String subject = "subject-" + random.nextInt(100_000);
            byte[] name = subject.getBytes(StandardCharsets.UTF_8);
            byte[] k = new byte[name.length + 6];
            k[0] = 'V';
            System.arraycopy(name, 0, k, 1, name.length);
            k[name.length + 1] = 0;
            k[k.length - 1] = (byte) random.nextInt(256); // versions above 127 test unsigned bytes
            keys.add(k);
        }
        keys.add(new byte[] {'V'});
        keys.add(new byte[] {'V', 0});
        keys.add(new byte[] {'V', 0, 0, 0, 0, 0, 0, 0});
        keys.add(new byte[] {'V', 0, 0, 0, 0, 0, 0, 0, 0});
        keys.add(new byte[] {'V', (byte) 0xff});
        keys.add(new byte[] {});
        byte[][] array = distinct(keys);
        assertArrayEquals(expected(array), KeyOrder.order(array));
    }

    @Test
    void keepsKeysThatArriveInOrder() {
        byte[][] keys = new byte[1_000][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = ByteBuffer.allocate(9).put((byte) 'A').putLong(1_000_000L + i).array();
        }
        int[] order = KeyOrder.order(keys);
        for (int i = 0; i < order.length; i++) {
            assertEquals(i, order[i]);
        }
    }
}
