package io.quire.journal.apply;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.Rejected;

/** Refusals that several rule classes give in the same words. */
final class Rules {

    private Rules() {
    }

    static Rejected invalidSubject(Subject s) {
        return Rejected.of(ErrorCode.INVALID_SUBJECT, String.valueOf(s));
    }

    static Rejected notPermitted(String why) {
        return Rejected.of(ErrorCode.OPERATION_NOT_PERMITTED, why);
    }

    static Rejected readOnly(Subject s) {
        return notPermitted("Subject " + s + " is in read-only mode");
    }
}
