package io.quire.journal;

import static io.quire.journal.Values.at;
import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static io.quire.journal.Values.vs;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quire.journal.apply.Applier;
import io.quire.journal.apply.ApplyResult;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteContext;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.DeleteVersion;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Context;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Rule;
import io.quire.journal.model.RuleKind;
import io.quire.journal.model.RuleMode;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.Subject;
import io.quire.journal.view.InMemoryKv;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random journals: two fresh views fed the same journal reach the same digest, and so does a
 * view that "crashes" at random points and replays from an earlier offset. A failure prints its
 * seed; pin it in {@link #pinnedSeed()} to reproduce.
 */
public class DeterminismTest {

    static final int RECORDS = 3_000;

    @Test
    void randomJournalsReplayToIdenticalViews() {
        long base = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            check(base + i);
        }
    }

    @Test
    void pinnedSeed() {
        check(42L);
    }

    static void check(long seed) {
        List<Envelope> journal = randomJournal(new Random(seed));
        InMemoryKv a = replay(journal);
        InMemoryKv b = replay(journal);
        InMemoryKv crashing = replayWithCrashes(journal, new Random(seed * 31 + 7));
        String msg = "seed " + seed;
        assertEquals(new RegistryView(a).position(), new RegistryView(b).position(), msg);
        assertEquals(ViewDigest.of(a), ViewDigest.of(b), msg);
        assertEquals(new RegistryView(a).position(), new RegistryView(crashing).position(), msg);
        assertEquals(ViewDigest.of(a), ViewDigest.of(crashing), msg);
    }

    static InMemoryKv replay(List<Envelope> journal) {
        InMemoryKv kv = new InMemoryKv();
        RegistryView view = new RegistryView(kv);
        Applier applier = new Applier();
        for (int offset = 0; offset < journal.size(); offset++) {
            kv.apply(applier.apply(view, at(offset), journal.get(offset)).changes());
        }
        return kv;
    }

    /** Every so often, go back to a random earlier offset and replay from there, as after kill -9. */
    static InMemoryKv replayWithCrashes(List<Envelope> journal, Random random) {
        InMemoryKv kv = new InMemoryKv();
        RegistryView view = new RegistryView(kv);
        Applier applier = new Applier();
        int offset = 0;
        while (offset < journal.size()) {
            ApplyResult r = applier.apply(view, at(offset), journal.get(offset));
            kv.apply(r.changes());
            offset++;
            if (random.nextInt(100) == 0) {
                offset = Math.max(0, offset - 1 - random.nextInt(50));
            }
        }
        return kv;
    }

    public static List<Envelope> randomJournal(Random random) {
        List<Envelope> out = new ArrayList<>();
        ReplayedJournal model = new ReplayedJournal();
        String[] subjects = {"a", "b", "c", "orders-value", "ü-subject", ":.ctx:a", ":.ctx:orders-value", ":.ctx:"};
        long nextProposed = 1;
        for (int i = 0; i < RECORDS; i++) {
            Subject s = Subject.of(subjects[random.nextInt(subjects.length)]);
            int pick = random.nextInt(100);
            Command c;
            if (pick < 5) {
                c = new LeaseIdBlock("n" + random.nextInt(3), "r" + i, 1 + random.nextInt(20));
            } else if (pick < 70) {
                String content = "\"type-" + random.nextInt(40) + "\"";
                CompatibilityLevel level = model.view().config().effectiveLevel(s);
                Offset revision = random.nextInt(10) == 0 ? at(random.nextInt(5) - 1) : model.view().revision(s);
                SchemaId proposed = id(random.nextInt(10) == 0 ? random.nextInt(200) : nextProposed++);
                Metadata m = random.nextInt(4) == 0 ? Metadata.of(null, Map.of("major", "" + random.nextInt(3)), null) : null;
                RuleSet rules = random.nextInt(6) == 0 ? new RuleSet(null, List.of(new Rule("r" + random.nextInt(2), null,
                        RuleKind.CONDITION, RuleMode.WRITE, "CEL", null, null, "true", null, null, false)), null) : null;
                // search terms: some every schema has, some of a few, one nearly of its own
                List<String> index = SearchTerm.encodeAll(List.of(new SearchTerm(SearchTerm.Kind.FIELD, "id", ""),
                        new SearchTerm(SearchTerm.Kind.FIELD, "f" + random.nextInt(5), ""),
                        new SearchTerm(SearchTerm.Kind.RECORD, "R" + random.nextInt(500), ""),
                        new SearchTerm(SearchTerm.Kind.DOC, "word" + random.nextInt(3), "")));
                c = new RegisterSchema(s, SchemaType.AVRO, content, List.of(), Fingerprint.parse("fp" + content + m + rules), proposed, level,
                        revision, m, rules, List.of(), index);
            } else if (pick < 78) {
                c = new DeleteVersion(s, v(1 + random.nextInt(5)), random.nextBoolean());
            } else if (pick < 84) {
                c = new DeleteSubject(s, random.nextBoolean());
            } else if (pick < 92) {
                CompatibilityLevel l = CompatibilityLevel.values()[random.nextInt(CompatibilityLevel.values().length)];
                c = random.nextInt(3) > 0 ? new SetConfig(random.nextBoolean() ? s : null, l)
                        : new SetConfig(random.nextBoolean() ? s : null, null, null, new ConfigFields(null, null, null,
                                random.nextBoolean() ? "major" : null, null, null, null, null),
                                random.nextBoolean() ? List.of("compatibilityGroup") : List.of());
            } else if (pick < 96) {
                c = new DeleteConfig(random.nextBoolean() ? s : null);
            } else if (pick < 98) {
                Mode[] modes = {Mode.READONLY, Mode.READWRITE, Mode.READWRITE, Mode.IMPORT};
                c = new SetMode(s, modes[random.nextInt(modes.length)]);
            } else if (pick < 99 || random.nextBoolean()) {
                String content = "\"type-" + random.nextInt(40) + "\"";
                c = new ImportSchema(s, SchemaType.AVRO, content, List.of(), Fingerprint.parse("fp" + content), id(1 + random.nextInt(300)),
                        v(random.nextInt(6)));
            } else {
                c = new DeleteContext(Context.parse(random.nextBoolean() ? ".ctx" : "."));
            }
            Envelope e = Envelope.of(CommandId.of("c" + i), "n" + random.nextInt(3), Principal.of("p"), 1_000L * i, c);
            model.append(e);
            out.add(e);
        }
        return out;
    }
}
