package io.quire.journal.view;

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

    public void idWatermark(long next) {
        changes.put(Keys.NEXT_ID, ByteBuffer.allocate(8).putLong(next).array());
    }

    public void schema(long id, StoredSchema schema, String fingerprint) {
        changes.put(Keys.schema(id), schema.encode());
        changes.put(Keys.fingerprint(fingerprint), ByteBuffer.allocate(8).putLong(id).array());
    }

    /** Schema {@code id} names {@code subject} version {@code version} among its references. */
    public void reference(String subject, int version, long id) {
        changes.put(Keys.referencedBy(subject, version, id), PRESENT);
    }

    public void subject(String subject, SubjectRecord record) {
        changes.put(Keys.subject(subject), record.encode());
    }

    public void deleteSubject(String subject) {
        changes.delete(Keys.subject(subject));
    }

    public void version(String subject, VersionRecord record) {
        changes.put(Keys.version(subject, record.version()), record.encode());
        changes.put(Keys.usage(record.schemaId(), subject, record.version()), PRESENT);
    }

    public void deleteVersion(String subject, VersionRecord record) {
        changes.delete(Keys.version(subject, record.version()));
        changes.delete(Keys.usage(record.schemaId(), subject, record.version()));
    }

    public void globalConfig(String level) {
        putOrDelete(Keys.GLOBAL_CONFIG, level);
    }

    public void subjectConfig(String subject, String level) {
        putOrDelete(Keys.subjectConfig(subject), level);
    }

    public void globalNormalize(Boolean normalize) {
        putOrDelete(Keys.GLOBAL_NORMALIZE, normalize == null ? null : normalize.toString());
    }

    public void subjectNormalize(String subject, Boolean normalize) {
        putOrDelete(Keys.subjectNormalize(subject), normalize == null ? null : normalize.toString());
    }

    public void globalMode(String mode) {
        putOrDelete(Keys.GLOBAL_MODE, mode);
    }

    public void subjectMode(String subject, String mode) {
        putOrDelete(Keys.subjectMode(subject), mode);
    }

    public void outcome(long offset, byte[] encodedOutcome) {
        changes.put(Keys.outcome(offset), encodedOutcome);
    }

    public void audit(AuditEntry entry) {
        changes.put(Keys.audit(entry.offset()), entry.encode());
    }

    private void putOrDelete(byte[] key, String text) {
        if (text == null) {
            changes.delete(key);
        } else {
            changes.put(key, text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
