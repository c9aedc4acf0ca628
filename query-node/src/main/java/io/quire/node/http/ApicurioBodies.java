package io.quire.node.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.node.service.Artifacts.ArtifactMeta;
import io.quire.node.service.Artifacts.Page;
import io.quire.node.service.Artifacts.VersionMeta;
import java.time.Instant;
import java.util.List;

/**
 * The answers of Apicurio Registry's v3 API that Quire serves, with Apicurio's field names and
 * order: a version's and an artifact's metadata, a created artifact, a version search's results and
 * a {@code ProblemDetails}. Quire keeps no owner or modifier: those are empty, as Apicurio answers
 * for anonymous writes; a time Quire does not know is left out.
 */
final class ApicurioBodies {

    private ApicurioBodies() {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record VersionMetaData(String version, String owner, String createdOn, String artifactType, long globalId,
                           String state, long contentId, String artifactId, String modifiedBy, String modifiedOn) {

        static VersionMetaData of(VersionMeta v) {
            return new VersionMetaData(v.version().toString(), "", time(v.createdOn()), v.type().name(), v.globalId(),
                    v.state(), v.contentId().value(), v.subject().name(), "", time(v.createdOn()));
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ArtifactMetaData(String owner, String createdOn, String modifiedBy, String modifiedOn, String artifactType,
                            String artifactId) {

        static ArtifactMetaData of(ArtifactMeta a) {
            return new ArtifactMetaData("", time(a.createdOn()), "", time(a.modifiedOn()), a.type().name(),
                    a.subject().name());
        }
    }

    /** {@code POST /groups/{g}/artifacts}: the artifact and its first (or new) version. */
    record CreateArtifactResponse(ArtifactMetaData artifact, VersionMetaData version) {
    }

    record VersionSearchResults(int count, List<VersionMetaData> versions) {

        static VersionSearchResults of(Page page) {
            return new VersionSearchResults(page.count(), page.versions().stream().map(VersionMetaData::of).toList());
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ProblemDetails(List<ProblemCause> causes, String detail, String title, int status, String name) {
    }

    record ProblemCause(String description, String context) {
    }

    private static String time(Instant t) {
        return t == null ? null : t.toString();
    }
}
