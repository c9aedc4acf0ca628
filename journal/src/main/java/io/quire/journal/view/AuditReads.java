package io.quire.journal.view;

import io.quire.journal.model.Offset;

/**
 * The audit trail in journal order, by offset or by time. Part of {@link RegistryView}, which answers with it.
 */
public final class AuditReads {

    private final KvReader kv;
    private final RegistryView view;

    AuditReads(KvReader kv, RegistryView view) {
        this.kv = kv;
        this.view = view;
    }

    /**
     * The first offset worth scanning for audit entries at or after {@code fromMillis}: a binary
     * search over the trail's offsets (a seek per step) for the first entry at or after
     * {@code fromMillis - RegistryView.AUDIT_CLOCK_SKEW_MILLIS}. Entries after it may still be older than
     * {@code fromMillis}; filter them. 0 when the trail is empty or starts later.
     */
    public Offset firstAuditOffsetFrom(long fromMillis) {
        long target = fromMillis - RegistryView.AUDIT_CLOCK_SKEW_MILLIS;
        long lo = 0;
        long hi = Math.max(0, view.position().offset().value() + 1); // offsets at or past hi: none
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            AuditEntry at = firstAuditEntryFrom(mid);
            if (at == null || at.timestamp() >= target) {
                hi = mid;
            } else {
                lo = at.offset().value() + 1;
            }
        }
        return Offset.of(lo);
    }

    private AuditEntry firstAuditEntryFrom(long offset) {
        AuditEntry[] first = {null};
        kv.scanFrom(Keys.AUDIT, Keys.audit(Offset.of(offset)), (k, v) -> {
            first[0] = AuditEntry.decode(Keys.auditOffset(k), v);
            return false;
        });
        return first[0];
    }

    /** Audit entries in journal order from {@code from} (the store seeks there), until the visitor says stop. */
    public void audit(Offset from, java.util.function.Predicate<AuditEntry> visitor) {
        byte[] start = Keys.audit(Offset.of(Math.max(0, from.value())));
        kv.scanFrom(Keys.AUDIT, start, (k, v) -> visitor.test(AuditEntry.decode(Keys.auditOffset(k), v)));
    }

    /**
     * As {@link #audit(Offset, java.util.function.Predicate)}, for entries of a time range
     * ({@code fromMillis}, {@code toMillis}: either null for open): the scan seeks to
     * {@link #firstAuditOffsetFrom} when that is past {@code from}, and stops at the first entry
     * later than {@code toMillis} by more than {@link #RegistryView.AUDIT_CLOCK_SKEW_MILLIS}. Entries just
     * outside the range may still be visited; filter them.
     */
    public void audit(Offset from, Long fromMillis, Long toMillis, java.util.function.Predicate<AuditEntry> visitor) {
        long start = fromMillis == null ? from.value() : Math.max(from.value(), firstAuditOffsetFrom(fromMillis).value());
        long stopAfter = toMillis == null ? Long.MAX_VALUE : toMillis + RegistryView.AUDIT_CLOCK_SKEW_MILLIS;
        audit(Offset.of(start), e -> e.timestamp() <= stopAfter && visitor.test(e));
    }
}
