package io.quire.node.service;

import static io.quire.journal.Values.at;
import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.apply.Applier;
import io.quire.journal.apply.ApplyResult;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.view.InMemoryKv;
import io.quire.journal.view.RegistryView;
import io.quire.node.config.QuireConfig;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.Fingerprints;
import io.quire.node.schema.ParsedSchema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing at the edge against a view built by the real applier in memory: references and their forms. */
class SchemaParsingTest {

    static final String DEP = "{\"type\":\"record\",\"name\":\"Dep\",\"namespace\":\"n\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}";
    static final String ROOT_FULL = "{\"type\":\"record\",\"name\":\"Root\",\"namespace\":\"n\",\"fields\":[{\"name\":\"d\",\"type\":\"n.Dep\"}]}";
    static final String ROOT_SHORT = "{\"type\":\"record\",\"name\":\"Root\",\"namespace\":\"n\",\"fields\":[{\"name\":\"d\",\"type\":\"Dep\"}]}";

    final Applier applier = new Applier();
    final InMemoryKv kv = new InMemoryKv();
    final RegistryView view = new RegistryView(kv);
    final SchemaParsing parsing = new SchemaParsing(new QuireConfig.Limits(1 << 20, 64, 16, 1000), false);
    final long[] reads = new long[1];
    /** The same view, counting its reads: the work a parse does. */
    final RegistryView counted = new RegistryView(new io.quire.journal.view.KvReader() {
        @Override
        public byte[] get(byte[] key) {
            reads[0]++;
            return kv.get(key);
        }

        @Override
        public void scan(byte[] prefix, KvVisitor visitor) {
            reads[0]++;
            kv.scan(prefix, visitor);
        }
    });
    long offset;
    long nextId = 1;

    Outcome append(Command c) {
        ApplyResult r = applier.apply(view, at(offset), Envelope.of(CommandId.of("c" + offset), "n", Principal.of("t"), 1L, c));
        offset++;
        kv.apply(r.changes());
        return r.outcome();
    }

    long register(String subject, ParsedSchema<?> p) {
        if (nextId == 1) {
            append(new LeaseIdBlock("n", "r", 1000));
        }
        Outcome o = append(new RegisterSchema(s(subject), p.type(), p.canonical(), p.references(), p.fingerprint(),
                id(nextId++), view.config().effectiveLevel(s(subject)), view.revision(s(subject))));
        return assertInstanceOf(SchemaRegistered.class, o).id().value();
    }

    static List<SchemaReference> dep() {
        return List.of(new SchemaReference("n.Dep", s("dep"), v(1)));
    }

    @Test
    void avroReferencesAreStoredByNameWhateverTheirSpelling() {
        register("dep", parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, DEP, List.of()));
        ParsedSchema<?> full = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, ROOT_FULL, dep());
        ParsedSchema<?> shortName = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, ROOT_SHORT, dep());
        assertEquals(ROOT_SHORT, full.canonical(), "the referenced record is named, not inlined");
        assertFalse(full.canonical().contains("\"x\""), full.canonical());
        assertEquals(full.fingerprint(), shortName.fingerprint(), "the spelling of the reference does not matter");
    }

    @Test
    void aSchemaStoredInlinedByAnEarlierReleaseKeepsItsId() {
        register("dep", parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, DEP, List.of()));
        ParsedSchema<?> now = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, ROOT_FULL, dep());
        // What an earlier release journaled: the referenced record inlined, fingerprinted as such.
        String inlined = now.legacyCanonical();
        assertTrue(inlined.contains("\"x\""), inlined);
        long oldId = register("root", new ParsedSchema(SchemaType.AVRO, inlined, dep(),
                Fingerprints.of(SchemaType.AVRO, inlined, dep()), null));
        ParsedSchema<?> again = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, ROOT_SHORT, dep());
        assertEquals(inlined, again.canonical(), "the stored form is found and kept");
        assertEquals(id(oldId), view.ids().idForFingerprint(Context.DEFAULT, again.fingerprint()).orElseThrow());
        assertEquals(again.fingerprint(), parsing.parseStored(view, Context.DEFAULT, id(oldId)).fingerprint(),
                "the stored inlined text still parses beside its references, as the same content");
    }

    @Test
    void aDiamondOfReferencesIsResolvedOncePerVersion() {
        // level k has two records, each referring to both records of level k-1: 2^16 paths, 32 versions.
        register("l0a", parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("L0a", List.of()), List.of()));
        register("l0b", parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("L0b", List.of()), List.of()));
        for (int k = 1; k < 16; k++) {
            List<SchemaReference> refs = List.of(new SchemaReference("n.L" + (k - 1) + "a", s("l" + (k - 1) + "a"), v(1)),
                    new SchemaReference("n.L" + (k - 1) + "b", s("l" + (k - 1) + "b"), v(1)));
            for (String side : List.of("a", "b")) {
                register("l" + k + side, parsing.parse(view, Context.DEFAULT, SchemaType.AVRO,
                        rec("L" + k + side, List.of("n.L" + (k - 1) + "a", "n.L" + (k - 1) + "b")), refs));
            }
        }
        long readsBefore = reads[0];
        ParsedSchema<?> top = parsing.parse(counted, Context.DEFAULT, SchemaType.AVRO, rec("Top", List.of("n.L15a", "n.L15b")),
                List.of(new SchemaReference("n.L15a", s("l15a"), v(1)), new SchemaReference("n.L15b", s("l15b"), v(1))));
        assertNotEquals(null, top.fingerprint());
        long used = reads[0] - readsBefore;
        assertTrue(used < 1_000, used + " view reads for 32 versions (one visit per path would be over 2^16)");
    }

    @Test
    void tooManyReferencedVersionsIsAnInvalidSchema() {
        List<SchemaReference> refs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            register("many" + i, parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("M" + i, List.of()), List.of()));
            refs.add(new SchemaReference("n.M" + i, s("many" + i), v(1)));
            names.add("n.M" + i);
        }
        SchemaParsing tight = new SchemaParsing(new QuireConfig.Limits(1 << 20, 64, 16, 1000), 30, false);
        RegistryException e = assertThrows(RegistryException.class,
                () -> tight.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("Wide", names), refs));
        assertEquals(ErrorCode.INVALID_SCHEMA, e.error());
        assertTrue(e.getMessage().contains("more than 30"), e.getMessage());
    }

    /** A record with one field per named type it uses. */
    static String rec(String name, List<String> uses) {
        StringBuilder sb = new StringBuilder("{\"type\":\"record\",\"name\":\"" + name + "\",\"namespace\":\"n\",\"fields\":[");
        sb.append("{\"name\":\"own\",\"type\":\"int\"}");
        for (int i = 0; i < uses.size(); i++) {
            sb.append(",{\"name\":\"u").append(i).append("\",\"type\":\"").append(uses.get(i)).append("\"}");
        }
        return sb.append("]}").toString();
    }

    @Test
    void aSchemaJustRegisteredIsCheckedAgainstWithoutParsingItAgain() {
        ParsedSchema<?> kept = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, DEP, List.of());
        long keptId = register("kept", kept);
        parsing.registered(Context.DEFAULT, id(keptId), Version.of(2), kept, false);
        reads[0] = 0;
        assertTrue(kept == parsing.parseStored(counted, Context.DEFAULT, id(keptId)), "the registration's own parse");
        assertEquals(0, reads[0], "no read of the stored text");

        String other = rec("Normal", List.of());
        ParsedSchema<?> normalised = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, other, List.of(), true);
        long normalisedId = register("normalised", normalised);
        parsing.registered(Context.DEFAULT, id(normalisedId), Version.of(2), normalised, true);
        ParsedSchema<?> stored = parsing.parseStored(counted, Context.DEFAULT, id(normalisedId));
        assertFalse(normalised == stored, "a normalised text is parsed from what was stored");
        assertTrue(reads[0] > 0);
        assertEquals(normalised.canonical(), stored.canonical());

        ParsedSchema<?> json = parsing.parse(view, Context.DEFAULT, SchemaType.JSON,
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}", List.of());
        long jsonId = register("json", json);
        parsing.registered(Context.DEFAULT, id(jsonId), Version.of(2), json, false);
        reads[0] = 0;
        assertFalse(json == parsing.parseStored(counted, Context.DEFAULT, id(jsonId)), "only Avro is kept");
        assertTrue(reads[0] > 0);

        ParsedSchema<?> first = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("First", List.of()), List.of());
        long firstId = register("first", first);
        int cached = parsing.cachedSchemas();
        parsing.registered(Context.DEFAULT, id(firstId), Version.of(1), first, false);
        assertEquals(cached, parsing.cachedSchemas(), "a subject's first version is not kept");
        reads[0] = 0;
        assertFalse(first == parsing.parseStored(counted, Context.DEFAULT, id(firstId)));
        assertTrue(reads[0] > 0, "a first version is parsed from what was stored");
    }

    @Test
    void aStoredContractIsReadOncePerIdAndTheCacheIsBoundedByMemory() {
        ParsedSchema<?> plain = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("Plain", List.of()), List.of());
        long plainId = register("plain", plain);
        ParsedSchema<?> owned = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("Owned", List.of()), List.of());
        io.quire.journal.model.Metadata metadata = io.quire.journal.model.Metadata.of(null,
                java.util.Map.of("owner", "team-a"), null);
        Outcome o = append(new RegisterSchema(s("owned"), owned.type(), owned.canonical(), owned.references(),
                Fingerprints.withContract(owned.fingerprint(), metadata, null), id(nextId++),
                view.config().effectiveLevel(s("owned")), view.revision(s("owned")), metadata, null));
        long ownedId = assertInstanceOf(SchemaRegistered.class, o).id().value();

        reads[0] = 0;
        assertTrue(parsing.storedContract(counted, Context.DEFAULT, id(plainId)).isNone());
        assertEquals(metadata, parsing.storedContract(counted, Context.DEFAULT, id(ownedId)).metadata());
        assertEquals(2, reads[0], "one read of each stored schema");
        assertTrue(parsing.storedContract(counted, Context.DEFAULT, id(plainId)).isNone());
        assertEquals(metadata, parsing.storedContract(counted, Context.DEFAULT, id(ownedId)).metadata());
        assertEquals(2, reads[0], "the second time from the cache");

        int cached = parsing.cachedContracts();
        assertEquals(null, parsing.storedContract(counted, Context.DEFAULT, id(nextId)), "no schema has that id yet");
        assertEquals(cached, parsing.cachedContracts(), "an absent id is not remembered");
        ParsedSchema<?> later = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("Later", List.of()), List.of());
        long laterId = register("later", later);
        assertTrue(parsing.storedContract(counted, Context.DEFAULT, id(laterId)).isNone(), "found once stored");

        ParsedSchema<?> fresh = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("Fresh", List.of()), List.of());
        long freshId = register("fresh", fresh);
        parsing.registeredWithoutContract(Context.DEFAULT, id(freshId));
        reads[0] = 0;
        assertTrue(parsing.storedContract(counted, Context.DEFAULT, id(freshId)).isNone());
        assertEquals(0, reads[0], "what a registration without a contract stored is known without a read");

        long one = SchemaParsing.contractWeight(DataContract.NONE, 0);
        SchemaParsing small = new SchemaParsing(new QuireConfig.Limits(1 << 20, 64, 16, 1000), 1000, false, 3 * one);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ids.add(register("k" + i, parsing.parse(view, Context.DEFAULT, SchemaType.AVRO,
                    rec(String.format("K%02d", i), List.of()), List.of())));
            small.storedContract(view, Context.DEFAULT, id(ids.get(i)));
        }
        assertTrue(small.cachedContractBytes() <= 3 * one, small.cachedContractBytes() + " of " + 3 * one);
        assertEquals(3, small.cachedContracts(), "the newest that fit");
        reads[0] = 0;
        small.storedContract(counted, Context.DEFAULT, id(ids.get(7)));
        assertEquals(0, reads[0]);
        small.storedContract(counted, Context.DEFAULT, id(ids.get(0)));
        assertEquals(1, reads[0], "an evicted one is read again");
    }

    @Test
    void aFingerprintsIdIsReadOnceAndAnAbsentOneEachTime() {
        ParsedSchema<?> p = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("Known", List.of()), List.of());
        reads[0] = 0;
        assertTrue(parsing.idForFingerprint(counted, Context.DEFAULT, p.fingerprint()).isEmpty());
        assertTrue(parsing.idForFingerprint(counted, Context.DEFAULT, p.fingerprint()).isEmpty());
        assertEquals(2, reads[0], "absent: read each time, as it may be stored at any moment");
        long id = register("known", p);
        assertEquals(id, parsing.idForFingerprint(counted, Context.DEFAULT, p.fingerprint()).orElseThrow().value());
        assertEquals(id, parsing.idForFingerprint(counted, Context.DEFAULT, p.fingerprint()).orElseThrow().value());
        assertEquals(3, reads[0], "found: read once");
        assertTrue(parsing.idForFingerprint(counted, Context.of(".other"), p.fingerprint()).isEmpty(),
                "another context's content is its own");

        ParsedSchema<?> q = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("Second", List.of()), List.of());
        register("second", q);
        ParsedSchema<?> r = parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("Third", List.of()), List.of());
        register("third", r);
        SchemaParsing small = new SchemaParsing(new QuireConfig.Limits(1 << 20, 64, 16, 1000), 1000, false,
                2 * SchemaParsing.fingerprintWeight(p.fingerprint()));
        small.idForFingerprint(view, Context.DEFAULT, p.fingerprint());
        small.idForFingerprint(view, Context.DEFAULT, q.fingerprint());
        small.idForFingerprint(view, Context.DEFAULT, r.fingerprint());
        assertEquals(2, small.cachedFingerprints(), "bounded by its estimate");
        reads[0] = 0;
        small.idForFingerprint(counted, Context.DEFAULT, p.fingerprint());
        assertEquals(1, reads[0], "the least recently used went first");
    }

    @Test
    void theCacheOfParsedSchemasIsBoundedByTheMemoryItHoldsNotByCount() {
        List<Long> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(register("c" + i, parsing.parse(view, Context.DEFAULT, SchemaType.AVRO,
                    rec(String.format("C%02d", i), List.of()), List.of())));
        }
        long one = SchemaParsing.weight(parsing.parse(view, Context.DEFAULT, SchemaType.AVRO, rec("C00", List.of()),
                List.of()));
        SchemaParsing small = new SchemaParsing(new QuireConfig.Limits(1 << 20, 64, 16, 1000), 1000, false, 5 * one);
        for (long id : ids) {
            small.parseStored(view, Context.DEFAULT, id(id));
        }
        assertTrue(small.cachedBytes() <= 5 * one, small.cachedBytes() + " of " + 5 * one);
        assertEquals(5, small.cachedSchemas(), "the newest that fit");
        reads[0] = 0;
        small.parseStored(counted, Context.DEFAULT, id(ids.get(19)));
        assertEquals(0, reads[0], "a cached one is not read again");
        small.parseStored(counted, Context.DEFAULT, id(ids.get(0)));
        assertTrue(reads[0] > 0, "an evicted one is parsed again");
    }
}
