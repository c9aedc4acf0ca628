package io.quire.node.service;

import io.quire.journal.model.Context;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.view.RegistryView;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.schema.SchemaSupport;
import java.util.Optional;

/**
 * What deciding a registration reads beside the view's own keys: facts the view never changes once
 * written (the id of a content, the contract and parsed form stored under an id), which the node
 * keeps in {@link SchemaParsing}'s caches. A decision reads them through {@link LearningReads}, which
 * fills nothing; the caller keeps what was read. The compatibility endpoint reads
 * {@link #through} the caches, filling them as it goes.
 */
interface DecisionReads {

    SchemaSupport<?> support(SchemaType type);

    /** The id of the content with {@code fingerprint} in {@code context}, if it is stored. */
    Optional<SchemaId> idForFingerprint(Context context, Fingerprint fingerprint);

    /** The contract stored under {@code id} (neither part when none), or null when no schema has that id. */
    DataContract storedContract(Context context, SchemaId id);

    /** The schema stored under {@code id}, parsed. */
    ParsedSchema<?> parsedStored(Context context, SchemaId id);

    /** The reads over {@code view} through {@code parsing}'s caches, filling them. */
    static DecisionReads through(SchemaParsing parsing, RegistryView view) {
        return new DecisionReads() {
            @Override
            public SchemaSupport<?> support(SchemaType type) {
                return parsing.support(type);
            }

            @Override
            public Optional<SchemaId> idForFingerprint(Context context, Fingerprint fingerprint) {
                return parsing.idForFingerprint(view, context, fingerprint);
            }

            @Override
            public DataContract storedContract(Context context, SchemaId id) {
                return parsing.storedContract(view, context, id);
            }

            @Override
            public ParsedSchema<?> parsedStored(Context context, SchemaId id) {
                return parsing.parseStored(view, context, id);
            }
        };
    }
}
