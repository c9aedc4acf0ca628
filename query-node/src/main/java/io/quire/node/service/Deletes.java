package io.quire.node.service;

import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.DeleteVersion;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.SubjectDeleted;
import io.quire.journal.outcome.VersionDeleted;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** {@code DELETE /subjects/{s}} and {@code DELETE /subjects/{s}/versions/{v}}, soft and permanent. */
public final class Deletes {

    private final ViewAccess access;
    private final WritePath path;

    Deletes(ViewAccess access, WritePath path) {
        this.access = access;
        this.path = path;
    }

    public CompletableFuture<Written<List<Version>>> deleteSubject(Subject subject, boolean permanent, Principal principal) {
        WritePath.validSubject(subject);
        RegistryView view = access.view();
        if (view.subject(subject).isEmpty()) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject); // refused here: nothing to journal
        }
        DeleteSubject delete = new DeleteSubject(subject, permanent);
        return path.submit(delete, principal, SubjectDeleted.class, SubjectDeleted::versions);
    }

    public CompletableFuture<Written<Version>> deleteVersion(Subject subject, VersionSpec spec, boolean permanent,
                                                             Principal principal) {
        WritePath.validSubject(subject);
        Version version = spec.version();
        RegistryView view = access.view();
        if (view.subject(subject).isEmpty()) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject); // refused here: nothing to journal
        }
        if (!spec.isLatest() && view.version(subject, version).isEmpty()) {
            throw RegistryException.of(ErrorCode.VERSION_NOT_FOUND, version);
        }
        if (spec.isLatest()) {
            Optional<VersionRecord> latest = permanent
                    ? view.versions(subject).stream().reduce((a, b) -> b) : view.latestLive(subject);
            version = latest.orElseThrow(() -> RegistryException.of(ErrorCode.VERSION_NOT_FOUND, "latest")).version();
        }
        DeleteVersion delete = new DeleteVersion(subject, version, permanent);
        return path.submit(delete, principal, VersionDeleted.class, VersionDeleted::version);
    }
}
