package io.quire.journal.view;

import io.quire.journal.model.Context;
import io.quire.journal.model.DekAlgorithm;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The key layout of the view. One byte of prefix per kind of entry; numbers big-endian so that
 * keys sort numerically; a subject ends with a 0x00 byte wherever something follows it (subjects
 * cannot contain control characters).
 *
 * <pre>
 * G pos | G next | G config | G mode    position, id watermark, global level and mode
 * G maxid                               the highest id a stored schema has
 * G layout                              the layout the view is written in (see {@link #LAYOUT})
 * G global                              the next global id a version gets
 * G follow                              the followed registry, if any, and how far ({@link FollowState})
 * G region                              the primary region and its epoch ({@link RegionState})
 * W global-id                           subject 0 version of the version with that global id
 * P [context-prefix] digest             id of the content whose text has that SHA-256 (Apicurio's content hash; {@link #digestKey})
 * I id                                  prepared body of GET /schemas/ids/{id} (default context)
 * J context 0 id                        the same, in a named context
 * F [context-prefix] digest             id of content with that fingerprint in a context (prefix ":.ctx:", none for the default)
 * U guid [context]                      id of the content with that GUID in a context (none: the default)
 * Y context                             a named context (written with its first schema, gone with DELETE /contexts)
 * S subject                             subject record
 * V subject 0 version                   version record
 * R id subject 0 version                which subject versions use an id
 * C subject | D subject | N subject     subject level, mode and normalize flag
 * X subject | G fields                  the other config fields (JSON) of a subject, of the registry
 * A offset                              audit entry of the command at that offset ({@link AuditEntry#encode})
 * A offset step                         audit entry of a step of the change set at that offset (4-byte step)
 * B subject 0 version id                schema id whose references name that subject version
 * K resource-id 0 type 0 role           an association (JSON)
 * L subject 0 resource-id 0 type 0 role    the associations of a subject
 * M resource-name 0 namespace 0 type 0 role 0 resource-id    an association, by name
 * E kek-name                            a key encryption key (JSON)
 * H kek-name 0 subject 0 algorithm 0 version    a data encryption key version (JSON)
 * Z exporter-name                       an exporter and its run (JSON, {@link ExporterReads})
 * T task-name                           who runs a task one node runs at a time, until when (JSON, {@link LeaseReads})
 * </pre>
 */
public final class Keys {

    public static final byte[] POSITION = ascii("Gpos");
    public static final byte[] NEXT_ID = ascii("Gnext");
    public static final byte[] GLOBAL_CONFIG = ascii("Gconfig");
    public static final byte[] GLOBAL_MODE = ascii("Gmode");
    public static final byte[] GLOBAL_NORMALIZE = ascii("Gnormalize");
    public static final byte[] GLOBAL_FIELDS = ascii("Gfields");
    public static final byte[] MAX_SCHEMA_ID = ascii("Gmaxid");
    /**
     * The next global id (8 bytes). Present in every view that has stored a version since global ids
     * exist; a view with versions and without it was built before them (see {@link IdReads#lacksGlobalIds}).
     */
    public static final byte[] NEXT_GLOBAL_ID = ascii("Gglobal");
    /**
     * The layout the view is written in (4 bytes), put with the view's first record. Views written
     * before layout 2 have none: they also kept each command's outcome (O offset) and their audit
     * entries as JSON. Layout 2 kept fingerprints and content hashes in their keys as hex; layout 3
     * as bytes ({@link #digestKey}). A node rebuilds a view of an older layout from the journal
     * ({@link RegistryView#layout}).
     */
    public static final byte[] LAYOUT = ascii("Glayout");
    /** Whether the registry follows another registry's log, and how far ({@link FollowState}). */
    public static final byte[] FOLLOW = ascii("Gfollow");
    /** The primary region and its epoch ({@link RegionState}). */
    public static final byte[] REGION = ascii("Gregion");
    public static final byte[] EXPORTERS = {'Z'};
    /**
     * The prefixes of the settings: G (global entries), C, D, N and X (subject level, mode,
     * normalize, other fields). Read for nearly every command, few, and mostly absent for a given
     * subject: a node keeps them in memory (its store's settings cache).
     */
    public static final byte[] SETTINGS = {'G', 'C', 'D', 'N', 'X'};
    private static final boolean[] IS_SETTING = new boolean[256];

    static {
        for (byte p : SETTINGS) {
            IS_SETTING[p & 0xff] = true;
        }
    }

    /** Whether {@code key} is a settings entry (its first byte one of {@link #SETTINGS}). */
    public static boolean isSetting(byte[] key) {
        return key.length > 0 && IS_SETTING[key[0] & 0xff];
    }
    public static final int CURRENT_LAYOUT = 4;
    public static final byte[] SCHEMAS = {'I'};
    public static final byte[] SUBJECTS = {'S'};
    public static final byte[] AUDIT = {'A'};

    private Keys() {
    }

    public static final byte[] CONTEXTS = {'Y'};
    public static final byte[] KEKS = {'E'};

    public static byte[] exporter(String name) {
        return concat(EXPORTERS, utf8(name));
    }

    public static byte[] lease(String task) {
        return concat(new byte[] {'T'}, utf8(task));
    }

    public static byte[] kek(String name) {
        return concat(KEKS, utf8(name));
    }

    /** The DEKs of a KEK; with {@code subject}, of that subject; with {@code algorithm} too, of that algorithm. */
    public static byte[] deks(String kekName, String subject, DekAlgorithm algorithm) {
        byte[] k = concat(new byte[] {'H'}, utf8(kekName), new byte[] {0});
        if (subject != null) {
            k = concat(k, utf8(subject), new byte[] {0});
            if (algorithm != null) {
                k = concat(k, ascii(algorithm.name()), new byte[] {0});
            }
        }
        return k;
    }

    public static byte[] dek(String kekName, String subject, DekAlgorithm algorithm, int version) {
        return concat(deks(kekName, subject, algorithm), intBytes(version));
    }

    public static byte[] schema(Context context, SchemaId id) {
        if (context.isDefault()) {
            return ByteBuffer.allocate(9).put((byte) 'I').putLong(id.value()).array();
        }
        return concat(new byte[] {'J'}, utf8(context.name()), new byte[] {0},
                ByteBuffer.allocate(8).putLong(id.value()).array());
    }

    public static byte[] fingerprint(Context context, Fingerprint fingerprint) {
        return digestKey('F', context, fingerprint);
    }

    /** The GUID's entries in every context: the default one's key is this prefix itself. */
    public static byte[] globalId(long globalId) {
        return concat(new byte[] {'W'}, ByteBuffer.allocate(8).putLong(globalId).array());
    }

    public static byte[] contentHash(Context context, String sha256Hex) {
        return digestKey('P', context, Fingerprint.parse(sha256Hex));
    }

    /**
     * {@code kind}, the context's prefix, then the digest's key form ({@link Fingerprint}: a SHA-256
     * as 1 and its 32 bytes, any other text as 0 and its UTF-8). A context prefix starts with ':',
     * so the three forms never meet.
     */
    static byte[] digestKey(char kind, Context context, Fingerprint digest) {
        byte[] prefix = context.isDefault() ? EMPTY : utf8(context.prefix());
        byte[] key = new byte[1 + prefix.length + digest.keyLength()];
        key[0] = (byte) kind;
        System.arraycopy(prefix, 0, key, 1, prefix.length);
        digest.copyKey(key, 1 + prefix.length);
        return key;
    }

    private static final byte[] EMPTY = new byte[0];

    public static byte[] guids(SchemaGuid guid) {
        return ByteBuffer.allocate(17).put((byte) 'U').putLong(guid.value().getMostSignificantBits())
                .putLong(guid.value().getLeastSignificantBits()).array();
    }

    public static byte[] guid(Context context, SchemaGuid guid) {
        return context.isDefault() ? guids(guid) : concat(guids(guid), utf8(context.name()));
    }

    /** The context at the end of a {@link #guid} key. */
    public static Context guidContext(byte[] key) {
        return key.length == 17 ? Context.DEFAULT : new Context(new String(key, 17, key.length - 17, StandardCharsets.UTF_8));
    }

    public static byte[] context(Context context) {
        return concat(CONTEXTS, utf8(context.name()));
    }

    public static Context contextOf(byte[] key) {
        return new Context(new String(key, 1, key.length - 1, StandardCharsets.UTF_8));
    }

    public static byte[] subject(Subject subject) {
        return subjectPrefix(subject.name());
    }

    /** The keys of every subject whose name starts with {@code prefix}. */
    public static byte[] subjectPrefix(String prefix) {
        return named('S', prefix, 0);
    }

    public static Subject subjectOf(byte[] subjectKey) {
        return Subject.of(new String(subjectKey, 1, subjectKey.length - 1, StandardCharsets.UTF_8));
    }

    public static byte[] versions(Subject subject) {
        return named('V', subject.name(), 1); // the name's terminator: the array's last byte, 0
    }

    public static byte[] version(Subject subject, Version version) {
        byte[] k = named('V', subject.name(), 5);
        ByteBuffer.wrap(k).putInt(k.length - 4, version.number());
        return k;
    }

    /** The version number at the end of a {@link #version} key. */
    public static Version versionOf(byte[] versionKey) {
        return Version.of(ByteBuffer.wrap(versionKey, versionKey.length - 4, 4).getInt());
    }

    /** The subject inside a {@link #version} key. */
    public static Subject subjectOfVersion(byte[] versionKey) {
        return Subject.of(new String(versionKey, 1, versionKey.length - 1 - 5, StandardCharsets.UTF_8));
    }

    public static byte[] usages(SchemaId id) {
        return ByteBuffer.allocate(9).put((byte) 'R').putLong(id.value()).array();
    }

    public static byte[] usages(SchemaId id, Subject subject) {
        return usageKey(id, subject, 1);
    }

    public static byte[] usage(SchemaId id, Subject subject, Version version) {
        byte[] k = usageKey(id, subject, 5);
        ByteBuffer.wrap(k).putInt(k.length - 4, version.number());
        return k;
    }

    /** 'R', the id, the subject's name, then {@code tail} bytes (the name's terminator first, 0). */
    private static byte[] usageKey(SchemaId id, Subject subject, int tail) {
        byte[] k = named('R', 8, subject.name(), tail);
        ByteBuffer.wrap(k).putLong(1, id.value());
        return k;
    }

    /**
     * Whether {@code prefix} is a {@link #usages(SchemaId, Subject)} prefix (one subject's uses of
     * an id), not an id's alone: longer than the id's, ending with the subject's terminator.
     */
    public static boolean isSubjectUsages(byte[] prefix) {
        return prefix.length > 9 && prefix[0] == 'R' && prefix[prefix.length - 1] == 0;
    }

    /** The {@link #usages(SchemaId, Subject)} prefix of a {@link #usage} key (null for a key of another kind). */
    public static byte[] subjectUsagesOf(byte[] key) {
        return key.length > 9 + 4 && key[0] == 'R' ? Arrays.copyOf(key, key.length - 4) : null;
    }

    /** The subject inside a {@link #usage} key. */
    public static Subject usageSubject(byte[] usageKey) {
        return Subject.of(new String(usageKey, 9, usageKey.length - 9 - 5, StandardCharsets.UTF_8));
    }

    public static byte[] referencedBy(Subject subject, Version version) {
        return concat(new byte[] {'B'}, utf8(subject.name()), new byte[] {0}, intBytes(version.number()));
    }

    public static byte[] referencedBy(Subject subject, Version version, SchemaId id) {
        return concat(referencedBy(subject, version), ByteBuffer.allocate(8).putLong(id.value()).array());
    }

    /** The id at the end of a {@link #referencedBy(Subject, Version, SchemaId)} key. */
    public static SchemaId referencingId(byte[] key) {
        return SchemaId.of(ByteBuffer.wrap(key, key.length - 8, 8).getLong());
    }

    public static final byte[] ASSOCIATIONS = {'K'};

    /** The associations of a resource id ({@code type} null: every type). */
    public static byte[] associations(String resourceId, String type) {
        return type == null ? concat(ASSOCIATIONS, utf8(resourceId), new byte[] {0})
                : concat(ASSOCIATIONS, utf8(resourceId), new byte[] {0}, utf8(type), new byte[] {0});
    }

    public static byte[] association(String resourceId, String type, String role) {
        return concat(associations(resourceId, type), utf8(role));
    }

    public static byte[] subjectAssociations(Subject subject) {
        return concat(new byte[] {'L'}, utf8(subject.name()), new byte[] {0});
    }

    public static byte[] subjectAssociation(Subject subject, String resourceId, String type, String role) {
        return concat(subjectAssociations(subject), utf8(resourceId), new byte[] {0}, utf8(type), new byte[] {0},
                utf8(role));
    }

    /** Associations by resource name ({@code namespace} null: every namespace). */
    public static byte[] associationsByName(String name, String namespace) {
        return namespace == null ? concat(new byte[] {'M'}, utf8(name), new byte[] {0})
                : concat(new byte[] {'M'}, utf8(name), new byte[] {0}, utf8(namespace), new byte[] {0});
    }

    public static byte[] associationByName(String name, String namespace, String type, String role,
                                           String resourceId) {
        return concat(associationsByName(name, namespace), utf8(type), new byte[] {0}, utf8(role), new byte[] {0},
                utf8(resourceId));
    }

    public static byte[] subjectConfig(Subject subject) {
        return named('C', subject.name(), 0);
    }

    public static byte[] subjectNormalize(Subject subject) {
        return named('N', subject.name(), 0);
    }

    public static byte[] subjectFields(Subject subject) {
        return named('X', subject.name(), 0);
    }

    public static byte[] subjectMode(Subject subject) {
        return named('D', subject.name(), 0);
    }

    public static byte[] audit(Offset offset) {
        return ByteBuffer.allocate(9).put((byte) 'A').putLong(offset.value()).array();
    }

    /** The audit entry of step {@code step} of the change set at {@code offset}: after the set's own entry. */
    public static byte[] auditStep(Offset offset, int step) {
        return ByteBuffer.allocate(13).put((byte) 'A').putLong(offset.value()).putInt(step).array();
    }

    /** The offset of an {@link #audit} or {@link #auditStep} key. */
    public static Offset auditOffset(byte[] auditKey) {
        return Offset.of(ByteBuffer.wrap(auditKey, 1, 8).getLong());
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] intBytes(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    /** {@code kind}, then {@code name} in UTF-8, then {@code tail} zero bytes: the hot keys in one array. */
    private static byte[] named(char kind, String name, int tail) {
        return named(kind, 0, name, tail);
    }

    /**
     * {@code kind}, {@code gap} zero bytes, {@code name} in UTF-8, then {@code tail} zero bytes. A
     * name of ASCII alone (nearly every subject) is copied in without an encoded copy of its own;
     * the bytes are the same as {@code concat} of the parts.
     */
    private static byte[] named(char kind, int gap, String name, int tail) {
        int n = name.length();
        int at = 1 + gap;
        for (int i = 0; i < n; i++) {
            if (name.charAt(i) >= 0x80) {
                byte[] encoded = utf8(name);
                byte[] k = new byte[at + encoded.length + tail];
                k[0] = (byte) kind;
                System.arraycopy(encoded, 0, k, at, encoded.length);
                return k;
            }
        }
        byte[] k = new byte[at + n + tail];
        k[0] = (byte) kind;
        for (int i = 0; i < n; i++) {
            k[at + i] = (byte) name.charAt(i);
        }
        return k;
    }

    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] p : parts) {
            length += p.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
