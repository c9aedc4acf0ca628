import java.nio.ByteBuffer;
import java.util.Random;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;

/**
 * Point reads of content by id straight from a view's RocksDB files, on one thread, without the
 * node around them: what a read by id costs in the store at a given size. Opens the view read-only
 * with the node's table settings (256 MiB LRU cache holding index and filter blocks, level-0
 * ones pinned, 10-bit Bloom filters) and reads keys {@code I}+id for ids drawn uniformly from
 * 1..MAX_ID, three rounds of SECONDS each.
 *
 * <pre>
 *   java -cp query-node/target/quire.jar bench/tools/ViewGets.java VIEW_DIR MAX_ID [SECONDS] [bottom-filters]
 * </pre>
 * VIEW_DIR is a stopped node's {@code <data-dir>/streams/<app>/global/quire/quire-view}.
 * {@code bottom-filters}: read as the view did before it skipped the bottom level's filters.
 */
public class ViewGets {
    public static void main(String[] args) throws Exception {
        RocksDB.loadLibrary();
        String dir = args[0];
        long maxId = Long.parseLong(args[1]);
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        boolean bottomFilters = args.length > 3 && args[3].equals("bottom-filters");
        BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(new LRUCache(256L << 20))
                .setFilterPolicy(new BloomFilter(10)).setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true);
        try (Options options = new Options().setTableFormatConfig(table).setOptimizeFiltersForHits(!bottomFilters);
             RocksDB db = RocksDB.openReadOnly(options, dir);
             ReadOptions read = new ReadOptions()) {
            Random random = new Random(1);
            byte[] key = new byte[9];
            ByteBuffer k = ByteBuffer.wrap(key);
            for (int round = 1; round <= 3; round++) {
                long reads = 0, absent = 0, bytes = 0;
                long start = System.nanoTime(), end = start + seconds * 1_000_000_000L;
                while (System.nanoTime() < end) {
                    for (int i = 0; i < 1_000; i++) {
                        k.clear();
                        k.put((byte) 'I').putLong(1 + (long) (random.nextDouble() * maxId));
                        byte[] v = db.get(read, key);
                        if (v == null) {
                            absent++;
                        } else {
                            bytes += v.length;
                        }
                    }
                    reads += 1_000;
                }
                System.out.printf("round %d: %.0f ns a read (%d reads of ids 1..%d, %d absent, %d bytes a value)%s%n",
                        round, (System.nanoTime() - start) / (double) reads, reads, maxId, absent,
                        bytes / Math.max(1, reads - absent), bottomFilters ? ", bottom-level filters asked" : "");
            }
            System.out.println("files by level: " + db.getProperty("rocksdb.levelstats").replace('\n', ' ').replaceAll(" +", " "));
        }
    }
}
