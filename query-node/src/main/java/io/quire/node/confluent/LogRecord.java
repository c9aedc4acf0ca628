package io.quire.node.confluent;

import io.quire.client.RegisterRequest;
import io.quire.journal.model.Association;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Dek;
import io.quire.journal.model.Kek;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Mode;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.util.List;

/**
 * One record of a Confluent Schema Registry's log, read: the {@code _schemas} topic's key types
 * (SCHEMA, CONFIG, MODE, DELETE_SUBJECT, CLEAR_SUBJECT, ASSOC, CONTEXT, NOOP) and the DEK registry's
 * ({@code _dek_registry_keys}: KEK, DEK). A subject of the default context spelled out
 * ({@code :.:orders}) is the plain subject; one of a named context keeps its qualified name. A record
 * whose value is null is a tombstone. What a record means is said here, once, so that every reader of
 * the log (the follower, the one-shot import) means the same by it: the follower decides journal
 * commands from it, the import folds it into a state, and both ask these types what a record covers.
 */
public sealed interface LogRecord {

    /** A subject's version: its schema, or (value null) its permanent removal. */
    record SchemaRecord(Subject subject, Version version, SchemaValue value) implements LogRecord {
    }

    /** What a SCHEMA record holds; {@code schemaType} null for Avro, as Confluent writes it. */
    record SchemaValue(int id, String schemaType, String schema, List<SchemaReference> references, Metadata metadata,
                       RuleSet ruleSet, boolean deleted) {

        public SchemaValue {
            references = references == null ? List.of() : List.copyOf(references);
        }

        public String typeOrAvro() {
            return schemaType == null || schemaType.isEmpty() ? "AVRO" : schemaType;
        }

        /** The request that imports this schema into another registry with its id and version. */
        public RegisterRequest importRequest(Version version) {
            return RegisterRequest.imported(schema, schemaType, references, id, version.number(), metadata, ruleSet);
        }
    }

    /** A subject's config (null subject: the registry's), or (value null) its removal. */
    record ConfigRecord(Subject subject, ConfigValue value) implements LogRecord {
    }

    /** A CONFIG record's value: the level and normalize flag (null: not set) and the other fields. */
    record ConfigValue(CompatibilityLevel level, Boolean normalize, ConfigFields fields) {

        public ConfigValue {
            fields = fields == null ? ConfigFields.NONE : fields;
        }

        /** Whether the value sets nothing at all. */
        public boolean isEmpty() {
            return level == null && normalize == null && fields.isNone();
        }
    }

    /** A subject's mode (null subject: the registry's), or (mode null) its removal. */
    record ModeRecord(Subject subject, Mode mode) implements LogRecord {
    }

    /**
     * A soft delete of a subject's versions up to {@code upTo}, as Confluent applies it: every version
     * from 1 to {@code upTo} is marked deleted; later versions (registered after the delete) stay.
     */
    record DeleteSubjectRecord(Subject subject, Version upTo) implements LogRecord {

        public boolean covers(Version version) {
            return version.number() <= upTo.number();
        }
    }

    /** The end of a permanent delete: the subject's soft-deleted versions are gone. */
    record ClearSubjectRecord(Subject subject) implements LogRecord {
    }

    /**
     * An association of a subject with a resource, or (value null) its removal; the key names the
     * resource by name, namespace and type, and the role and subject.
     */
    record AssociationRecord(AssociationKey key, Association value) implements LogRecord {
    }

    /** What an ASSOC key names. */
    record AssociationKey(String resourceName, String resourceNamespace, String resourceType, String associationType,
                          Subject subject) {
    }

    /** A context made; a context also comes into being with its first schema. */
    record ContextRecord(String context) implements LogRecord {
    }

    /**
     * A record with nothing to apply: a NOOP (a reader's position mark) or a tombstone of a key whose
     * tombstones Confluent's own reader ignores (DELETE_SUBJECT, CLEAR_SUBJECT, CONTEXT).
     */
    record NoopRecord(String keytype) implements LogRecord {
    }

    /** A key encryption key of the DEK registry, by name, or (value null) its removal. */
    record KekRecord(String name, Kek value) implements LogRecord {
    }

    /** A data encryption key of the DEK registry, or (value null) its removal. */
    record DekRecord(String kekName, String subject, String algorithm, int version, Dek value) implements LogRecord {
    }
}
