package io.quire.journal.apply;

import io.quire.journal.command.DeleteAssociations;
import io.quire.journal.command.SetAssociations;
import io.quire.journal.model.Association;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Lifecycle;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.AssociationsDeleted;
import io.quire.journal.outcome.AssociationsSet;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.SubjectRecord;
import io.quire.journal.view.ViewWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Associations between subjects and resources. A resource has one subject per role; a subject has
 * at most one STRONG association and, once it has one, no other (a STRONG association says the
 * subject belongs to that resource); a frozen association is not replaced, and a frozen STRONG one
 * is removed only with its subject ({@code cascadeLifecycle}). Each association gets a GUID from
 * the journal position of the command that made it, so every node gives the same one; replacing
 * an association by the same subject keeps its GUID.
 */
final class AssociationRules {

    private AssociationRules() {
    }

    static Outcome set(RegistryView view, ViewWriter out, Offset offset, SetAssociations c) {
        if (c.associations().isEmpty()) {
            return Rejected.of(ErrorCode.INVALID_ASSOCIATION, "Invalid association: no associations given");
        }
        Set<String> roles = new HashSet<>();
        List<Association> set = new ArrayList<>();
        for (Association a : c.associations()) {
            Rejected invalid = invalid(a);
            if (invalid != null) {
                return invalid;
            }
            if (!roles.add(a.associationType())) {
                return Rejected.of(ErrorCode.INVALID_ASSOCIATION, "Invalid association: association type '"
                        + a.associationType() + "' given twice");
            }
            // A subject with no version yet may be associated: Confluent's clients create the
            // association, then register through it. One whose versions are all soft-deleted may not.
            if (view.subject(a.subject()).map(SubjectRecord::softDeleted).orElse(false)) {
                return Rejected.of(ErrorCode.NO_ACTIVE_SUBJECT_VERSION, a.subject());
            }
            Optional<Association> existing = view.associations().association(a.resourceId(), a.resourceType(),
                    a.associationType());
            if (existing.isPresent() && !c.replace()) {
                return Rejected.of(ErrorCode.ASSOCIATION_FOR_RESOURCE_EXISTS, a.associationType(), a.resourceName());
            }
            if (existing.isPresent() && existing.get().frozen() && !existing.get().sameAs(a)) {
                return Rejected.of(ErrorCode.ASSOCIATION_FROZEN, a.associationType(), existing.get().subject());
            }
            Rejected taken = subjectTaken(view, a, existing.orElse(null));
            if (taken != null) {
                return taken;
            }
            existing.ifPresent(out::deleteAssociation);
            Association stored = a.withGuid(existing.filter(e -> e.subject().equals(a.subject())).map(Association::guid)
                    .orElseGet(() -> guid(offset, set.size())));
            out.association(stored);
            set.add(stored);
        }
        return new AssociationsSet(set);
    }

    /** The GUID of the {@code index}-th association a command at {@code offset} makes: a pure function of the journal. */
    static String guid(Offset offset, int index) {
        return UUID.nameUUIDFromBytes(("association " + offset.value() + " " + index).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    static Outcome delete(RegistryView view, ViewWriter out, Offset offset, DeleteAssociations c) {
        if (c.resourceId() == null || c.resourceId().isEmpty()) {
            return Rejected.of(ErrorCode.INVALID_ASSOCIATION, "Invalid association: resourceId cannot be null or empty");
        }
        List<Association> removed = new ArrayList<>();
        List<Subject> cascaded = new ArrayList<>();
        for (Association a : view.associations().associations(c.resourceId(), c.resourceType())) {
            if (c.associationTypes().isEmpty() || c.associationTypes().contains(a.associationType())) {
                boolean strong = a.lifecycle() == Lifecycle.STRONG;
                if (a.frozen() && strong && !c.cascades()) {
                    return Rejected.of(ErrorCode.ASSOCIATION_FROZEN, a.associationType(), a.subject());
                }
                removed.add(a);
                if (strong && c.cascades()) {
                    cascaded.add(a.subject());
                }
            }
        }
        if (removed.isEmpty()) {
            return Rejected.of(ErrorCode.ASSOCIATION_NOT_FOUND, c.resourceId());
        }
        for (Subject s : cascaded) {
            Rejected refused = DeleteRules.erasable(view, s);
            if (refused != null) {
                return refused; // nothing is written: the associations stay with their subjects
            }
        }
        removed.forEach(out::deleteAssociation);
        for (Subject s : cascaded) {
            DeleteRules.erase(view, out, s);
        }
        return new AssociationsDeleted(removed);
    }

    /** A refusal when the subject's other associations forbid this one; null when they allow it. */
    private static Rejected subjectTaken(RegistryView view, Association a, Association replaced) {
        for (Association other : view.associations().subjectAssociations(a.subject())) {
            if (sameSlot(other, replaced) || sameSlot(other, a)) {
                continue;
            }
            if (other.lifecycle() == Lifecycle.STRONG) {
                return Rejected.of(ErrorCode.STRONG_ASSOCIATION_FOR_SUBJECT_EXISTS, a.subject());
            }
            if (a.lifecycle() == Lifecycle.STRONG) {
                return Rejected.of(ErrorCode.ASSOCIATION_FOR_SUBJECT_EXISTS, a.subject());
            }
        }
        return null;
    }

    private static boolean sameSlot(Association x, Association y) {
        return y != null && x.resourceId().equals(y.resourceId()) && x.resourceType().equals(y.resourceType())
                && x.associationType().equals(y.associationType());
    }

    /** Confluent's checks of an association's names, 42212; null when it is valid. */
    static Rejected invalid(Association a) {
        if (!Subject.isValid(a.subject())) {
            return Rules.invalidSubject(a.subject());
        }
        for (String[] p : new String[][] {{"resourceName", a.resourceName()}, {"resourceNamespace", a.resourceNamespace()},
            {"resourceId", a.resourceId()}, {"resourceType", a.resourceType()},
            {"associationType", a.associationType()}}) {
            if (!Subject.isValid(p[1])) {
                return Rejected.of(ErrorCode.INVALID_ASSOCIATION, "Invalid association: " + p[0]
                        + " must be a non-empty name without control characters");
            }
        }
        if (a.lifecycle() == Lifecycle.WEAK && a.frozen()) {
            return Rejected.of(ErrorCode.INVALID_ASSOCIATION,
                    "Invalid association: frozen: association with lifecycle of WEAK cannot be frozen");
        }
        return null;
    }
}
