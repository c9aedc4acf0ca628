package io.quire.journal.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandType;
import io.quire.journal.command.Envelope;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.OutcomeType;
import java.io.IOException;

/**
 * Encodes journal records and outcomes as JSON with explicit wire names:
 *
 * <pre>
 * {"v":1,"type":"RegisterSchema","commandId":"…","nodeId":"…","principal":"…","timestamp":…,"payload":{…}}
 * {"commandId":"…","outcome":{"type":"SchemaRegistered",…}}
 * </pre>
 *
 * Never a Java class name on the wire. Records of every envelope version ever written stay
 * readable; golden files in the tests hold one record per type and version.
 */
public final class JournalCodec {

    private JournalCodec() {
    }

    public static byte[] encode(Envelope e) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("v", e.version());
        root.put("type", e.command().type().wireName);
        root.put("commandId", e.commandId());
        root.put("nodeId", e.nodeId());
        root.put("principal", e.principal());
        root.put("timestamp", e.timestamp());
        root.set("payload", Json.MAPPER.valueToTree(e.command()));
        return write(root);
    }

    public static Envelope decode(byte[] bytes) {
        try {
            JsonNode root = Json.MAPPER.readTree(bytes);
            int version = required(root, "v").asInt();
            if (version != Envelope.CURRENT_VERSION) {
                throw new CorruptRecordException("unsupported envelope version " + version, null);
            }
            CommandType type = CommandType.fromWireName(required(root, "type").asText());
            Command command = Json.MAPPER.treeToValue(required(root, "payload"), type.javaType);
            return new Envelope(version, required(root, "commandId").asText(), required(root, "nodeId").asText(),
                    required(root, "principal").asText(), required(root, "timestamp").asLong(), command);
        } catch (IOException | RuntimeException ex) {
            if (ex instanceof CorruptRecordException c) {
                throw c;
            }
            throw new CorruptRecordException("cannot decode journal record: " + ex.getMessage(), ex);
        }
    }

    /**
     * What the replica digest (version 2) covers of an outcome: its stored form without free
     * text. A rejection keeps its error code, a conflict only that it was one; every other outcome
     * holds no text but names (levels, modes), so it is covered whole.
     */
    public static byte[] encodeDigestForm(String commandId, Outcome outcome) {
        Outcome withoutText = outcome;
        if (outcome instanceof Rejected r) {
            withoutText = new Rejected(r.error(), "");
        } else if (outcome instanceof Conflict) {
            withoutText = new Conflict("");
        }
        return encodeOutcome(commandId, withoutText);
    }

    /** The stored form of an outcome (what the audit trail and the digest version 1 read). */
    public static byte[] encodeOutcome(String commandId, Outcome outcome) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("commandId", commandId);
        ObjectNode o = Json.MAPPER.valueToTree(outcome);
        ObjectNode typed = Json.MAPPER.createObjectNode();
        typed.put("type", outcome.type().wireName);
        typed.setAll(o);
        root.set("outcome", typed);
        return write(root);
    }

    /** A stored outcome and the command it answered. */
    public record StoredOutcome(String commandId, Outcome outcome) {
    }

    public static StoredOutcome decodeOutcome(byte[] bytes) {
        try {
            JsonNode root = Json.MAPPER.readTree(bytes);
            ObjectNode o = ((ObjectNode) required(root, "outcome")).deepCopy();
            OutcomeType type = OutcomeType.fromWireName(o.remove("type").asText());
            return new StoredOutcome(required(root, "commandId").asText(), Json.MAPPER.treeToValue(o, type.javaType));
        } catch (IOException | RuntimeException ex) {
            throw new CorruptRecordException("cannot decode outcome: " + ex.getMessage(), ex);
        }
    }

    private static JsonNode required(JsonNode root, String field) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            throw new CorruptRecordException("missing field '" + field + "'", null);
        }
        return n;
    }

    private static byte[] write(Object tree) {
        try {
            return Json.MAPPER.writeValueAsBytes(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
