package io.quire.journal.view;

import io.quire.journal.model.Context;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.SchemaId;
import io.quire.journal.view.RegistryView.Usage;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Ids: global ids of versions, ids by fingerprint and content hash, the highest schema id stored. Part of {@link RegistryView}, which answers with it.
 */
public final class IdReads {

    private final KvReader kv;

    IdReads(KvReader kv) {
        this.kv = kv;
    }

    /** The global id the next version gets (1 in a view that has none yet). */
    public long nextGlobalId() {
        byte[] b = kv.get(Keys.NEXT_GLOBAL_ID);
        return b == null ? 1 : ByteBuffer.wrap(b).getLong();
    }

    /** The subject version with that global id, if any. */
    public Optional<Usage> versionOfGlobalId(long globalId) {
        byte[] b = kv.get(Keys.globalId(globalId));
        if (b == null) {
            return Optional.empty();
        }
        byte[] versionKey = new byte[b.length + 1];
        versionKey[0] = 'V';
        System.arraycopy(b, 0, versionKey, 1, b.length);
        return Optional.of(new Usage(Keys.subjectOfVersion(versionKey), Keys.versionOf(versionKey)));
    }

    /** The id of the content with that {@link ContentHash} in a context, if any. */
    public Optional<SchemaId> idForContentHash(Context context, String sha256Hex) {
        return Optional.ofNullable(kv.get(Keys.contentHash(context, sha256Hex)))
                .map(b -> SchemaId.of(ByteBuffer.wrap(b).getLong()));
    }

    /**
     * True for a view built before versions had global ids: it has versions but no
     * {@link Keys#NEXT_GLOBAL_ID}. Such a view is rebuilt from the journal before a node serves it,
     * so that every node gives every version the same global id.
     */
    public boolean lacksGlobalIds() {
        if (kv.get(Keys.NEXT_GLOBAL_ID) != null) {
            return false;
        }
        boolean[] any = {false};
        kv.scan(new byte[] {'V'}, (k, v) -> {
            any[0] = true;
            return false;
        });
        return any[0];
    }

    public Optional<SchemaId> idForFingerprint(Context context, Fingerprint fingerprint) {
        return Optional.ofNullable(kv.get(Keys.fingerprint(context, fingerprint)))
                .map(b -> SchemaId.of(ByteBuffer.wrap(b).getLong()));
    }

    /**
     * The highest id a stored schema has, if any. Views written before the applier kept it find it
     * by scanning the schemas once.
     */
    public Optional<SchemaId> maxSchemaId() {
        byte[] b = kv.get(Keys.MAX_SCHEMA_ID);
        if (b != null) {
            return Optional.of(SchemaId.of(ByteBuffer.wrap(b).getLong()));
        }
        long[] max = {-1};
        kv.scan(Keys.SCHEMAS, (k, v) -> {
            max[0] = Math.max(max[0], ByteBuffer.wrap(k, 1, 8).getLong());
            return true;
        });
        return max[0] < 0 ? Optional.empty() : Optional.of(SchemaId.of(max[0]));
    }

    /**
     * False when no context can hold a schema with {@code id}: the view keeps the highest id a
     * stored schema has in any context, and {@code id} is above it. A registration of new content
     * asks this before it reads whether its id is taken, so the common case (a fresh id from the
     * node's block, above every stored one) costs no lookup of an absent key. True without the
     * highest id: views that predate it (and a scan of the default context's schemas would not
     * cover the other contexts).
     */
    public boolean mayHoldSchemaId(SchemaId id) {
        byte[] b = kv.get(Keys.MAX_SCHEMA_ID);
        return b == null || id.value() <= ByteBuffer.wrap(b).getLong();
    }
}
