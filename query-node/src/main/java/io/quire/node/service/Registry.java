package io.quire.node.service;

import io.quire.ids.BlockAllocator;
import io.quire.node.write.WriteMetrics;
import io.quire.node.write.JournalPort;
import java.util.concurrent.Executor;

/** The registry's services, one per Confluent resource, wired once. */
public record Registry(Registrations registrations, CompatibilityChecks checks, Deletes deletes,
                       SettingsWrites settings, SchemaReads schemas, SubjectReads subjects, SettingsReads settingsReads,
                       Associations associations, Contexts contexts, EncryptionKeys keys,
                       Artifacts artifacts, Exporters exporters, ChangeSets changeSets, Linting linting) {

    public static Registry create(ViewAccess access, SchemaParsing parsing, JournalPort journal,
                                  BlockAllocator ids, Executor workers, WriteMetrics metrics, long writeTimeoutMs) {
        return create(access, parsing, journal, ids, workers, metrics, writeTimeoutMs, Kms.NONE);
    }

    public static Registry create(ViewAccess access, SchemaParsing parsing, JournalPort journal,
                                  BlockAllocator ids, Executor workers, WriteMetrics metrics, long writeTimeoutMs,
                                  Kms kms) {
        WritePath path = new WritePath(journal, workers, access);
        Registrations registrations = new Registrations(access, parsing, path, ids, metrics, writeTimeoutMs);
        return new Registry(registrations, new CompatibilityChecks(access, parsing, path), new Deletes(access, path),
                new SettingsWrites(access, path), new SchemaReads(access, parsing), new SubjectReads(access, parsing),
                new SettingsReads(access), new Associations(access, path, registrations), new Contexts(access, path),
                new EncryptionKeys(access, path, kms), new Artifacts(access, parsing, registrations),
                new Exporters(access, path), new ChangeSets(access, parsing, path, ids, writeTimeoutMs),
                new Linting(access, parsing, path));
    }
}
