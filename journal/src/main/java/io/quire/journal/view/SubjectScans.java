package io.quire.journal.view;

import io.quire.journal.model.Context;
import io.quire.journal.model.Subject;
import java.util.ArrayList;
import java.util.List;

/**
 * Subjects listed by name prefix (one context, or every context with {@link RegistryView#ANY_CONTEXT}),
 * whether any exist, and how often their records were written. Part of {@link RegistryView}, which answers with it.
 */
public final class SubjectScans {

    private final KvReader kv;

    SubjectScans(KvReader kv) {
        this.kv = kv;
    }

    /**
     * The subjects whose names start with {@code prefix}, ascending by name, soft-deleted ones
     * included. A prefix {@code :.ctx:} keeps to one context; {@code :*:p} matches {@code p}
     * inside every context (the default one included), as Confluent's wildcard does.
     */
    public List<Subject> subjects(String prefix) {
        String p = prefix == null ? "" : prefix;
        boolean anyContext = p.startsWith(RegistryView.ANY_CONTEXT);
        String bare = anyContext ? p.substring(RegistryView.ANY_CONTEXT.length()) : null;
        List<Subject> out = new ArrayList<>();
        kv.scan(Keys.subjectPrefix(anyContext ? "" : p), (k, v) -> {
            Subject s = Keys.subjectOf(k);
            if (!anyContext || s.bare().startsWith(bare)) {
                out.add(s);
            }
            return true;
        });
        return out;
    }

    /**
     * As {@link #subjectRecords}, from the subject named {@code from} (or the first after it; null:
     * from the start): the scan seeks there.
     */
    public void subjectRecordsFrom(String prefix, String from,
                                   java.util.function.BiPredicate<Subject, SubjectRecord> visitor) {
        String p = prefix == null ? "" : prefix;
        boolean anyContext = p.startsWith(RegistryView.ANY_CONTEXT);
        String bare = anyContext ? p.substring(RegistryView.ANY_CONTEXT.length()) : null;
        byte[] scanned = Keys.subjectPrefix(anyContext ? "" : p);
        KvReader.KvVisitor each = (k, v) -> {
            Subject s = Keys.subjectOf(k);
            return anyContext && !s.bare().startsWith(bare) || visitor.test(s, SubjectRecord.decode(v));
        };
        byte[] start = from == null ? null : Keys.subjectPrefix(from);
        if (start == null || java.util.Arrays.compareUnsigned(start, scanned) <= 0) {
            kv.scan(scanned, each);
        } else {
            kv.scanFrom(scanned, start, each);
        }
    }

    /**
     * A number that changes whenever a subject record is written (created, its versions changed,
     * deleted); with {@code versions}, whenever a version record is written too. -1: the store
     * does not count (see {@link KvReader#writesUnder}).
     */
    public long subjectWrites(boolean versions) {
        long s = kv.writesUnder(Keys.SUBJECTS[0]);
        if (s < 0 || !versions) {
            return s;
        }
        long v = kv.writesUnder((byte) 'V');
        return v < 0 ? -1 : s + v;
    }

    /** Whether any subject exists (soft-deleted ones included). */
    public boolean hasSubjects() {
        boolean[] found = {false};
        kv.scan(Keys.SUBJECTS, (k, v) -> {
            found[0] = true;
            return false;
        });
        return found[0];
    }

    /** Whether the subjects of a context include any, soft-deleted ones too. */
    public boolean hasSubjects(Context context) {
        boolean[] found = {false};
        kv.scan(Keys.subjectPrefix(context.prefix()), (k, v) -> {
            found[0] = context.equals(Keys.subjectOf(k).context());
            return !found[0];
        });
        return found[0];
    }
}
