package io.quire.node.service;

import io.quire.journal.model.Context;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.view.RegistryView;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.schema.SchemaSupport;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A decision's reads: the caches first, then the view, whose answers are kept here (not in the
 * caches) for the caller to hand to {@link SchemaParsing#remember} after the decision. One per
 * decision, on one thread.
 */
final class LearningReads implements DecisionReads {

    record IdKey(Context context, SchemaId id) {
    }

    record FingerprintKey(Context context, Fingerprint fingerprint) {
    }

    record ReadContract(DataContract contract, int storedBytes) {
    }

    private final SchemaParsing parsing;
    private final RegistryView view;
    final Map<IdKey, ParsedSchema<?>> parsed = new HashMap<>();
    final Map<IdKey, ReadContract> contracts = new HashMap<>();
    final Map<FingerprintKey, SchemaId> ids = new HashMap<>();

    LearningReads(SchemaParsing parsing, RegistryView view) {
        this.parsing = parsing;
        this.view = view;
    }

    @Override
    public SchemaSupport<?> support(SchemaType type) {
        return parsing.support(type);
    }

    @Override
    public Optional<SchemaId> idForFingerprint(Context context, Fingerprint fingerprint) {
        SchemaId cached = parsing.cachedId(context, fingerprint);
        if (cached != null) {
            return Optional.of(cached);
        }
        FingerprintKey key = new FingerprintKey(context, fingerprint);
        SchemaId read = ids.get(key);
        if (read != null) {
            return Optional.of(read);
        }
        Optional<SchemaId> found = view.ids().idForFingerprint(context, fingerprint);
        found.ifPresent(id -> ids.put(key, id));
        return found;
    }

    @Override
    public DataContract storedContract(Context context, SchemaId id) {
        DataContract cached = parsing.cachedContract(context, id);
        if (cached != null) {
            return cached;
        }
        IdKey key = new IdKey(context, id);
        ReadContract read = contracts.get(key);
        if (read != null) {
            return read.contract();
        }
        byte[] bytes = view.schemaBytes(context, id);
        if (bytes == null) {
            return null;
        }
        DataContract contract = SchemaParsing.contractOf(bytes);
        contracts.put(key, new ReadContract(contract, bytes.length));
        return contract;
    }

    @Override
    public ParsedSchema<?> parsedStored(Context context, SchemaId id) {
        ParsedSchema<?> cached = parsing.cachedParsed(context, id);
        if (cached != null) {
            return cached;
        }
        return parsed.computeIfAbsent(new IdKey(context, id), k -> parsing.parseStoredUncached(view, context, id));
    }
}
