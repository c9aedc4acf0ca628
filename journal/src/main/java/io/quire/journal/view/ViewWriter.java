package io.quire.journal.view;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.quire.journal.codec.Json;
import io.quire.journal.model.Association;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Context;
import io.quire.journal.model.Dek;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Kek;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Typed writes into a {@link Changes} batch: the write-side twin of {@link RegistryView}, so the
 * encodings stay beside the key layout.
 */
public final class ViewWriter {

    private static final byte[] PRESENT = {1};

    private final Changes changes;

    public ViewWriter(Changes changes) {
        this.changes = changes;
    }

    public Changes changes() {
        return changes;
    }

    public void position(Position p) {
        changes.put(Keys.POSITION, p.encode());
    }

    public void follow(FollowState state) {
        changes.put(Keys.FOLLOW, state.encode());
    }

    public void idWatermark(SchemaId next) {
        changes.put(Keys.NEXT_ID, ByteBuffer.allocate(8).putLong(next.value()).array());
    }

    public void maxSchemaId(SchemaId id) {
        changes.put(Keys.MAX_SCHEMA_ID, ByteBuffer.allocate(8).putLong(id.value()).array());
    }

    public void schema(Context context, SchemaId id, StoredSchema schema, Fingerprint fingerprint) {
        byte[] idBytes = ByteBuffer.allocate(8).putLong(id.value()).array();
        io.quire.journal.model.SchemaGuid guid = schema.guid();
        changes.put(Keys.schema(context, id), schema.encode(guid));
        changes.put(Keys.fingerprint(context, fingerprint), idBytes);
        changes.put(Keys.guid(context, guid), idBytes);
        changes.put(Keys.contentHash(context, ContentHash.of(schema.schema(), schema.references())), idBytes);
        if (!context.isDefault()) {
            changes.put(Keys.context(context), PRESENT);
        }
    }

    public void exporter(io.quire.journal.model.Exporter e) {
        changes.put(Keys.exporter(e.name()), json(e));
    }

    public void lease(io.quire.journal.model.TaskLease lease) {
        changes.put(Keys.lease(lease.name()), json(lease));
    }

    public void deleteExporter(String name) {
        changes.delete(Keys.exporter(name));
    }

    public void region(RegionState r) {
        changes.put(Keys.REGION, r.encode());
    }

    public void kek(Kek kek) {
        changes.put(Keys.kek(kek.name()), json(kek));
    }

    public void deleteKek(String name) {
        changes.delete(Keys.kek(name));
    }

    public void dek(Dek dek) {
        changes.put(Keys.dek(dek.kekName(), dek.subject(), dek.algorithm(), dek.version()), json(dek));
    }

    public void deleteDek(Dek dek) {
        changes.delete(Keys.dek(dek.kekName(), dek.subject(), dek.algorithm(), dek.version()));
    }

    private static byte[] json(Object value) {
        try {
            return Json.MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public void deleteContext(Context context) {
        changes.delete(Keys.context(context));
    }

    /** Schema {@code id} names {@code subject} version {@code version} among its references. */
    public void reference(Subject subject, Version version, SchemaId id) {
        changes.put(Keys.referencedBy(subject, version, id), PRESENT);
    }

    public void subject(Subject subject, SubjectRecord record) {
        changes.put(Keys.subject(subject), record.encode());
    }

    public void deleteSubject(Subject subject) {
        changes.delete(Keys.subject(subject));
    }

    public void version(Subject subject, VersionRecord record) {
        byte[] versionKey = Keys.version(subject, record.version());
        changes.put(versionKey, record.encode());
        changes.put(Keys.usage(record.schemaId(), subject, record.version()), PRESENT);
        if (record.globalId() > 0) {
            changes.put(Keys.globalId(record.globalId()), java.util.Arrays.copyOfRange(versionKey, 1, versionKey.length));
        }
    }

    public void deleteVersion(Subject subject, VersionRecord record) {
        changes.delete(Keys.version(subject, record.version()));
        changes.delete(Keys.usage(record.schemaId(), subject, record.version()));
        if (record.globalId() > 0) {
            changes.delete(Keys.globalId(record.globalId()));
        }
    }

    /** The global id the next version gets. */
    public void nextGlobalId(long next) {
        changes.put(Keys.NEXT_GLOBAL_ID, ByteBuffer.allocate(8).putLong(next).array());
    }

    public void globalConfig(String level) {
        putOrDelete(Keys.GLOBAL_CONFIG, level);
    }

    public void subjectConfig(Subject subject, String level) {
        putOrDelete(Keys.subjectConfig(subject), level);
    }

    public void globalNormalize(Boolean normalize) {
        putOrDelete(Keys.GLOBAL_NORMALIZE, normalize == null ? null : normalize.toString());
    }

    public void subjectNormalize(Subject subject, Boolean normalize) {
        putOrDelete(Keys.subjectNormalize(subject), normalize == null ? null : normalize.toString());
    }

    /** The registry's other config fields; none at all removes the entry. */
    public void globalFields(ConfigFields fields) {
        putOrDelete(Keys.GLOBAL_FIELDS, encode(fields));
    }

    public void subjectFields(Subject subject, ConfigFields fields) {
        putOrDelete(Keys.subjectFields(subject), encode(fields));
    }

    private static String encode(ConfigFields fields) {
        if (fields == null || fields.isNone()) {
            return null;
        }
        try {
            return Json.MAPPER.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public void association(Association a) {
        try {
            changes.put(Keys.association(a.resourceId(), a.resourceType(), a.associationType()),
                    Json.MAPPER.writeValueAsBytes(a));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        changes.put(Keys.subjectAssociation(a.subject(), a.resourceId(), a.resourceType(), a.associationType()), PRESENT);
        changes.put(Keys.associationByName(a.resourceName(), a.resourceNamespace(), a.resourceType(),
                a.associationType(), a.resourceId()), PRESENT);
    }

    public void deleteAssociation(Association a) {
        changes.delete(Keys.association(a.resourceId(), a.resourceType(), a.associationType()));
        changes.delete(Keys.subjectAssociation(a.subject(), a.resourceId(), a.resourceType(), a.associationType()));
        changes.delete(Keys.associationByName(a.resourceName(), a.resourceNamespace(), a.resourceType(),
                a.associationType(), a.resourceId()));
    }

    public void globalMode(String mode) {
        putOrDelete(Keys.GLOBAL_MODE, mode);
    }

    public void subjectMode(Subject subject, String mode) {
        putOrDelete(Keys.subjectMode(subject), mode);
    }

    /** The layout this view is written in (with its first record; see {@link Keys#LAYOUT}). */
    public void layout(int layout) {
        changes.put(Keys.LAYOUT, ByteBuffer.allocate(4).putInt(layout).array());
    }

    public void audit(AuditEntry entry) {
        changes.put(Keys.audit(entry.offset()), entry.encode());
    }

    public void auditStep(AuditEntry entry, int step) {
        changes.put(Keys.auditStep(entry.offset(), step), entry.encode());
    }

    private void putOrDelete(byte[] key, String text) {
        if (text == null) {
            changes.delete(key);
        } else {
            changes.put(key, text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
