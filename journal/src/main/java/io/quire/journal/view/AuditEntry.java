package io.quire.journal.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.Json;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import java.io.IOException;

/**
 * Who did what, when, to which subject, and what came of it: one per journal record, kept in the
 * view by offset. Everything in it comes from the command itself, so it is part of the
 * deterministic view like everything else.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AuditEntry(Offset offset, long timestamp, String principal, String nodeId, String commandId,
                         String command, Subject subject, String outcome, Integer errorCode) {

    public static AuditEntry of(Offset offset, Envelope e, Outcome outcome) {
        Integer code = outcome instanceof Rejected r ? r.error().code : null;
        if (e == null) {
            return new AuditEntry(offset, 0, null, null, null, "Unreadable", null, outcome.type().wireName, code);
        }
        return new AuditEntry(offset, e.timestamp(), e.principal(), e.nodeId(), e.commandId(),
                e.command().type().wireName, e.command().subject(), outcome.type().wireName, code);
    }

    public byte[] encode() {
        try {
            return Json.MAPPER.writeValueAsBytes(this);
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }

    public static AuditEntry decode(byte[] bytes) {
        try {
            return Json.MAPPER.readValue(bytes, AuditEntry.class);
        } catch (IOException ex) {
            throw new CorruptRecordException("cannot decode audit entry", ex);
        }
    }

    /** A filter on subject, principal and time (epoch millis, inclusive); null fields match all. */
    public record Filter(Subject subject, String principal, Long fromMillis, Long toMillis) {
        public boolean matches(AuditEntry e) {
            return (subject == null || subject.equals(e.subject()))
                    && (principal == null || principal.equals(e.principal()))
                    && (fromMillis == null || e.timestamp() >= fromMillis)
                    && (toMillis == null || e.timestamp() <= toMillis);
        }
    }
}
