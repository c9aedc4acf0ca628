package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import io.quire.journal.view.AuditEntry;
import io.quire.node.error.RegistryException;
import io.quire.node.service.ViewAccess;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * {@code GET /audit}: who did what, when, to which subject, from the view's audit entries.
 * Filters: {@code subject}, {@code principal}, {@code from}/{@code to} (ISO-8601 or epoch millis),
 * {@code after} (a journal offset, for paging), {@code limit}.
 */
final class AuditHandler {

    private final ViewAccess access;
    private final Executor workers;
    private final int maxPageSize;

    AuditHandler(ViewAccess access, Executor workers, int maxPageSize) {
        this.access = access;
        this.workers = workers;
        this.maxPageSize = maxPageSize;
    }

    private static Principal principalOrAll(String name) {
        return name == null || name.isEmpty() ? null : Principal.of(name);
    }

    private static Subject subjectOrAll(String name) {
        return name == null ? null : Subject.of(name);
    }

    void list(RoutingContext ctx) {
        AuditEntry.Filter filter = new AuditEntry.Filter(subjectOrAll(Params.text(ctx, "subject")),
                principalOrAll(Params.text(ctx, "principal")),
                time(Params.text(ctx, "from")), time(Params.text(ctx, "to")));
        long after = number(Params.text(ctx, "after"), -1);
        int limit = (int) Math.min(maxPageSize, number(Params.text(ctx, "limit"), 100));
        Async.reply(ctx, CompletableFuture.supplyAsync(() -> {
            List<AuditEntry> out = new ArrayList<>();
            // A change set has several entries under one offset: a page ends after the last of them,
            // since the next page starts after the offset ("after").
            long[] full = {-1};
            access.view().audit().audit(Offset.of(after + 1), filter.fromMillis(), filter.toMillis(), e -> {
                if (full[0] >= 0 && e.offset().value() != full[0]) {
                    return false;
                }
                if (filter.matches(e)) {
                    out.add(e);
                    if (out.size() >= limit && full[0] < 0) {
                        full[0] = e.offset().value();
                    }
                }
                return true;
            });
            return out;
        }, workers), ApiJson::ok);
    }

    static Long time(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            try {
                return Instant.parse(text).toEpochMilli();
            } catch (DateTimeParseException e2) {
                throw new RegistryException(ErrorCode.UNPROCESSABLE, "not a time: " + text);
            }
        }
    }

    static long number(String text, long dflt) {
        if (text == null || text.isEmpty()) {
            return dflt;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, "not a number: " + text);
        }
    }
}
