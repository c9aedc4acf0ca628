package io.quire.journal.apply;

import io.quire.journal.command.DeleteAssociations;
import io.quire.journal.command.SetAssociations;
import io.quire.journal.model.Association;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Lifecycle;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.AssociationsDeleted;
import io.quire.journal.outcome.AssociationsSet;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.SubjectRecord;
import io.quire.journal.view.ViewWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Associations between subjects and resources. A resource has one subject per role; a subject has
 * at most one STRONG association and, once it has one, no other (a STRONG association says the
 * subject belongs to that resource); a frozen association is neither replaced nor removed.
 */
final class AssociationRules {

    private AssociationRules() {
    }

    static Outcome set(RegistryView view, ViewWriter out, SetAssociations c) {
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
            if (view.subject(a.subject()).map(SubjectRecord::softDeleted).orElse(true)) {
                return Rejected.of(ErrorCode.NO_ACTIVE_SUBJECT_VERSION, a.subject());
            }
            Optional<Association> existing = view.association(a.resourceId(), a.resourceType(), a.associationType());
            if (existing.isPresent() && !c.replace()) {
                return Rejected.of(ErrorCode.ASSOCIATION_FOR_RESOURCE_EXISTS, a.associationType(), a.resourceName());
            }
            if (existing.isPresent() && existing.get().frozen() && !existing.get().equals(a)) {
                return Rejected.of(ErrorCode.ASSOCIATION_FROZEN, a.associationType(), existing.get().subject());
            }
            Rejected taken = subjectTaken(view, a, existing.orElse(null));
            if (taken != null) {
                return taken;
            }
            existing.ifPresent(out::deleteAssociation);
            out.association(a);
            set.add(a);
        }
        return new AssociationsSet(set);
    }

    static Outcome delete(RegistryView view, ViewWriter out, DeleteAssociations c) {
        if (c.resourceId() == null || c.resourceId().isEmpty()) {
            return Rejected.of(ErrorCode.INVALID_ASSOCIATION, "Invalid association: resourceId cannot be null or empty");
        }
        List<Association> removed = new ArrayList<>();
        for (Association a : view.associations(c.resourceId(), c.resourceType())) {
            if (c.associationTypes().isEmpty() || c.associationTypes().contains(a.associationType())) {
                if (a.frozen()) {
                    return Rejected.of(ErrorCode.ASSOCIATION_FROZEN, a.associationType(), a.subject());
                }
                removed.add(a);
            }
        }
        if (removed.isEmpty()) {
            return Rejected.of(ErrorCode.ASSOCIATION_NOT_FOUND, c.resourceId());
        }
        removed.forEach(out::deleteAssociation);
        return new AssociationsDeleted(removed);
    }

    /** A refusal when the subject's other associations forbid this one; null when they allow it. */
    private static Rejected subjectTaken(RegistryView view, Association a, Association replaced) {
        for (Association other : view.subjectAssociations(a.subject())) {
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
