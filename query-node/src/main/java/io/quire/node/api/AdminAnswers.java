package io.quire.node.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.Offset;
import java.util.List;
import java.util.Map;

/**
 * The fixed-shape answers of the admin endpoints and of Confluent's exporter API, one record each,
 * with the wire names the docs and {@code quire.jar}'s commands read. A field that is null is left
 * out (the key appears only when it applies, as before these were records).
 */
public final class AdminAnswers {

    private AdminAnswers() {
    }

    /** {@code GET /admin/view-digest?content=true}: the content's digest and the offset it covers at least. */
    public record ContentDigest(String contentDigest, long offset) {
    }

    /** {@code GET /admin/region}. */
    public record RegionStatus(String region, String primary, int epoch, boolean writable, String follows,
                               long appliedOffset, long lagRecords, long newestRecordTimestamp, double lagSeconds) {
    }

    /** {@code POST /admin/promote}: the promotion journaled. */
    public record Promotion(String region, int epoch, long nextId, long offset, long millis) {
    }

    /** {@code POST /admin/follow/cutover}. */
    public record CutOverDone(boolean cutOver, String source, long lastSourceOffset, long offset) {
    }

    /** {@code GET /admin/cluster}: every node's position beside this one's. */
    public record ClusterView(long journalEnd, List<ClusterNode> nodes) {
    }

    /** One node of {@link ClusterView}; a peer that did not answer has its error and no position. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ClusterNode(String url, boolean self, String nodeId, Boolean ready, Long appliedOffset, String digest,
                              Long journalEnd, Long lag, String error) {
    }

    /** Confluent's {@code GET /exporters/{name}}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ExporterInfo(String name, List<String> subjects, String contextType, String context,
                               String subjectRenameFormat, Map<String, String> config) {
    }

    /**
     * Confluent's {@code GET /exporters/{name}/status} (name, state, offset, ts, trace), with Quire's
     * lag behind the journal and the node that runs it.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ExporterStatus(String name, String state, Offset offset, long ts, String trace, long lag,
                                 String runner) {
    }
}
