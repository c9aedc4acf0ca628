package io.quire.node.ops;

import io.quire.client.ConfigRequest;
import io.quire.client.RegisterRequest;
import io.quire.journal.model.Association;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.node.confluent.LogRecord.AssociationRecord;
import io.quire.node.confluent.LogRecord.ClearSubjectRecord;
import io.quire.node.confluent.LogRecord.ConfigRecord;
import io.quire.node.confluent.LogRecord.DeleteSubjectRecord;
import io.quire.node.confluent.LogRecord.ModeRecord;
import io.quire.node.confluent.LogRecord.SchemaRecord;
import io.quire.node.confluent.LogRecord.SchemaValue;
import io.quire.node.confluent.LogRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A source registry's state, as an import writes it into Quire: subject versions with their ids,
 * configs, modes and associations. The Confluent import folds its {@code _schemas} topic into one,
 * record by record ({@link #apply}: the last record of a key wins, a tombstone removes, a subject
 * delete marks the versions it covers); the Apicurio import fills one from an export. Subjects of a
 * named context keep their qualified names; "" is the registry's own setting.
 */
public final class SourceState {

    /**
     * One subject version as the source registry holds it, its data contract included (null parts:
     * none); {@code globalId} and {@code deprecated} when the source is an Apicurio registry.
     */
    public record SourceSchema(String subject, int version, long id, String schemaType, String schema,
                        List<SchemaReference> references, Metadata metadata, RuleSet ruleSet, boolean deleted,
                        Long globalId, boolean deprecated) {

        public SourceSchema {
            references = references == null ? List.of() : List.copyOf(references);
        }

        SourceSchema softDeleted() {
            return new SourceSchema(subject, version, id, schemaType, schema, references, metadata, ruleSet, true,
                    globalId, deprecated);
        }

        /** The request that imports this version with its id and version. */
        RegisterRequest request() {
            return RegisterRequest.imported(schema, schemaType, references, (int) id, version, metadata, ruleSet)
                    .withApicurioFields(globalId, deprecated);
        }
    }

    final Map<String, SourceSchema> schemas = new TreeMap<>();
    final Map<String, ConfigRequest> configs = new TreeMap<>(); // "" is the registry's
    final Map<String, String> modes = new TreeMap<>();
    /** The live associations, by their record key (resource name, namespace, type, role, subject), in order. */
    final Map<LogRecord.AssociationKey, Association> associations = new LinkedHashMap<>();
    long records;
    /** Why each record the import could not read was not read (the import reports them and fails). */
    final List<String> unreadable = new ArrayList<>();

    static String key(String subject, int version) {
        return subject + '\u0000' + version;
    }

    /** The subject versions by subject and version. */
    public Map<String, SourceSchema> schemas() {
        return Collections.unmodifiableMap(schemas);
    }

    /** The configs by subject ("" the registry's). */
    public Map<String, ConfigRequest> configs() {
        return Collections.unmodifiableMap(configs);
    }

    /** The modes by subject ("" the registry's). */
    public Map<String, String> modes() {
        return Collections.unmodifiableMap(modes);
    }

    public Map<LogRecord.AssociationKey, Association> associations() {
        return Collections.unmodifiableMap(associations);
    }

    public void apply(LogRecord record) {
        records++;
        if (record instanceof SchemaRecord s) {
            String k = key(s.subject().name(), s.version().number());
            SchemaValue v = s.value();
            if (v == null) {
                schemas.remove(k);
            } else {
                schemas.put(k, new SourceSchema(s.subject().name(), s.version().number(), v.id(), v.typeOrAvro(),
                        v.schema(), v.references(), v.metadata(), v.ruleSet(), v.deleted(), null, false));
            }
        } else if (record instanceof ConfigRecord c) {
            String k = name(c.subject());
            if (c.value() == null) {
                configs.remove(k);
            } else {
                configs.put(k, new ConfigRequest(c.value().level() == null ? null : c.value().level().name(),
                        c.value().normalize(), c.value().fields().isNone() ? null : c.value().fields()));
            }
        } else if (record instanceof ModeRecord m) {
            if (m.mode() == null) {
                modes.remove(name(m.subject()));
            } else {
                modes.put(name(m.subject()), m.mode().name());
            }
        } else if (record instanceof DeleteSubjectRecord d) {
            for (Map.Entry<String, SourceSchema> e : schemas.entrySet()) {
                SourceSchema s = e.getValue();
                if (s.subject().equals(d.subject().name()) && d.covers(Version.of(s.version()))) {
                    e.setValue(s.softDeleted());
                }
            }
        } else if (record instanceof ClearSubjectRecord c) {
            schemas.values().removeIf(s -> s.subject().equals(c.subject().name()) && s.deleted());
        } else if (record instanceof AssociationRecord a) {
            if (a.value() == null) {
                associations.remove(a.key());
            } else {
                associations.put(a.key(), a.value());
            }
        }
        // contexts come into being with their first schema; NOOPs and the DEK registry's keys change nothing
    }

    private static String name(Subject subject) {
        return subject == null ? "" : subject.name();
    }
}
