package io.quire.journal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.CommandType;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.Principal;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.OutcomeType;
import io.quire.journal.outcome.Rejected;
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

    /**
     * A journal record, written in one pass: the envelope's fields in this order, then the command
     * as its payload. Byte for byte what a tree of the same fields gives (JournalCodecGoldenTest
     * compares the two for every command type).
     */
    public static byte[] encode(Envelope e) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(512);
        try (com.fasterxml.jackson.core.JsonGenerator g = Json.MAPPER.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("v", e.version());
            g.writeStringField("type", e.command().type().wireName);
            g.writeStringField("commandId", e.commandId().value());
            g.writeStringField("nodeId", e.nodeId());
            g.writeStringField("principal", e.principal().name());
            g.writeNumberField("timestamp", e.timestamp());
            g.writeFieldName("payload");
            Json.MAPPER.writeValue(g, e.command());
            if (e.source() != null) { // a later field: releases before it read the record without it
                g.writeObjectFieldStart("source");
                g.writeStringField("name", e.source().name());
                g.writeNumberField("offset", e.source().offset());
                if (e.source().part() != 0) {
                    g.writeNumberField("part", e.source().part());
                }
                if (e.source().chained()) {
                    g.writeNumberField("prevOffset", e.source().prevOffset());
                    g.writeNumberField("prevPart", e.source().prevPart());
                }
                g.writeEndObject();
            }
            if (e.epoch() > 0) { // a later field, like source
                g.writeNumberField("epoch", e.epoch());
            }
            g.writeEndObject();
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
        return out.toByteArray();
    }

    /** One reader per command type, made once (a reader is immutable and may be shared). */
    private static final java.util.Map<CommandType, com.fasterxml.jackson.databind.ObjectReader> READERS;

    static {
        java.util.EnumMap<CommandType, com.fasterxml.jackson.databind.ObjectReader> readers =
                new java.util.EnumMap<>(CommandType.class);
        for (CommandType t : CommandType.values()) {
            readers.put(t, Json.MAPPER.readerFor(t.javaType));
        }
        READERS = readers;
    }

    /**
     * Reads a journal record. Records in the form {@link #encode} writes (fields as it orders
     * them, each of its JSON type, no duplicates) are read in one streaming pass, the payload
     * straight into its command; anything else is read through a tree, with the same result.
     */
    public static Envelope decode(byte[] bytes) {
        Envelope fast = decodeStreaming(bytes);
        return fast != null ? fast : decodeTree(bytes);
    }

    /** The streaming pass; null when the record is not in the canonical form (then the tree decides). */
    static Envelope decodeStreaming(byte[] bytes) {
        try (JsonParser p = Json.MAPPER.createParser(bytes)) {
            p.nextToken();
            Head h = new Head();
            int seen = CanonicalJson.object(p, h);
            if (seen < 0 || (seen & 127) != 127 || p.nextToken() != null || h.commandId == null || h.nodeId == null
                    || h.principal == null) {
                return null;
            }
            return new Envelope(h.version, CommandId.of(h.commandId), h.nodeId, Principal.of(h.principal), h.timestamp,
                    h.command, h.source, h.epoch);
        } catch (IOException | RuntimeException ex) {
            return null; // the tree pass reads it again and words the refusal
        }
    }

    /** A record's fields in the order {@link #encode} writes them. */
    private static final class Head implements CanonicalJson.Fields {
        int version = -1;
        CommandType type;
        String commandId;
        String nodeId;
        String principal;
        long timestamp;
        Command command;
        Envelope.Source source;
        int epoch;

        @Override
        public int read(JsonParser p, String field, JsonToken t) throws IOException {
            switch (field) {
                case "v" -> {
                    if (!CanonicalJson.isInt(p, t)) {
                        return 0;
                    }
                    version = p.getIntValue();
                    return 1;
                }
                case "type" -> {
                    if (t != JsonToken.VALUE_STRING) {
                        return 0;
                    }
                    type = CommandType.fromWireName(p.getText());
                    return 2;
                }
                case "commandId" -> {
                    commandId = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    return 4;
                }
                case "nodeId" -> {
                    nodeId = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    return 8;
                }
                case "principal" -> {
                    principal = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    return 16;
                }
                case "timestamp" -> {
                    if (!CanonicalJson.isLong(p, t)) {
                        return 0;
                    }
                    timestamp = p.getLongValue();
                    return 32;
                }
                case "payload" -> {
                    if (t != JsonToken.START_OBJECT || type == null || version != Envelope.CURRENT_VERSION) {
                        return 0;
                    }
                    // not in the canonical form: the tree reads the register payload
                    command = type == CommandType.REGISTER_SCHEMA ? RegisterPayload.read(p)
                            : type == CommandType.REGISTER_VERSIONS ? RegisterPayload.readVersions(p)
                            : READERS.get(type).readValue(p);
                    return command == null ? 0 : 64;
                }
                case "epoch" -> {
                    if (!CanonicalJson.isInt(p, t)) {
                        return 0;
                    }
                    epoch = p.getIntValue();
                    return 128;
                }
                case "source" -> {
                    SourceFields f = new SourceFields();
                    int seen = CanonicalJson.object(p, f);
                    if (seen < 0 || (seen & 3) != 3) {
                        return 0;
                    }
                    source = new Envelope.Source(f.name, f.offset, f.part, f.prevOffset, f.prevPart);
                    return 256;
                }
                default -> {
                    return 0;
                }
            }
        }
    }

    /** A copied record's source, as {@link #encode} writes it: name and offset, the rest when not the default. */
    private static final class SourceFields implements CanonicalJson.Fields {
        String name;
        long offset;
        int part;
        Long prevOffset;
        Integer prevPart;

        @Override
        public int read(JsonParser p, String field, JsonToken t) throws IOException {
            switch (field) {
                case "name" -> {
                    name = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    return name == null ? 0 : 1;
                }
                case "offset" -> {
                    if (!CanonicalJson.isLong(p, t)) {
                        return 0;
                    }
                    offset = p.getLongValue();
                    return 2;
                }
                case "part" -> {
                    if (!CanonicalJson.isInt(p, t)) {
                        return 0;
                    }
                    part = p.getIntValue();
                    return 4;
                }
                case "prevOffset" -> {
                    if (!CanonicalJson.isLong(p, t)) {
                        return 0;
                    }
                    prevOffset = p.getLongValue();
                    return 8;
                }
                case "prevPart" -> {
                    if (!CanonicalJson.isInt(p, t)) {
                        return 0;
                    }
                    prevPart = p.getIntValue();
                    return 16;
                }
                default -> {
                    return 0;
                }
            }
        }
    }

    static Envelope decodeTree(byte[] bytes) {
        try {
            JsonNode root = Json.MAPPER.readTree(bytes);
            int version = required(root, "v").asInt();
            if (version != Envelope.CURRENT_VERSION) {
                throw new CorruptRecordException("unsupported envelope version " + version, null);
            }
            CommandType type = CommandType.fromWireName(required(root, "type").asText());
            Command command = Json.MAPPER.treeToValue(required(root, "payload"), type.javaType);
            JsonNode src = root.get("source");
            Envelope.Source source = src == null || src.isNull() ? null
                    : new Envelope.Source(required(src, "name").asText(), required(src, "offset").asLong(),
                    src.path("part").asInt(0), src.hasNonNull("prevOffset") ? src.get("prevOffset").asLong() : null,
                    src.hasNonNull("prevPart") ? src.get("prevPart").asInt() : null);
            return new Envelope(version, CommandId.of(required(root, "commandId").asText()),
                    required(root, "nodeId").asText(), Principal.of(required(root, "principal").asText()),
                    required(root, "timestamp").asLong(), command, source, root.path("epoch").asInt(0));
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
    public static byte[] encodeDigestForm(CommandId commandId, Outcome outcome) {
        Outcome withoutText = outcome;
        if (outcome instanceof Rejected r) {
            withoutText = new Rejected(r.error(), "");
        } else if (outcome instanceof Conflict) {
            withoutText = new Conflict("");
        }
        return encodeOutcome(commandId, withoutText);
    }

    /** Whether the digest form of {@code outcome} leaves something out (a rejection's or conflict's text). */
    public static boolean hasFreeText(Outcome outcome) {
        return outcome instanceof Rejected || outcome instanceof Conflict;
    }

    /**
     * The stored form of an outcome (what the audit trail and the digest version 1 read):
     * {@code {"commandId":…,"outcome":{"type":…,<the outcome's own fields>}}}. Written in one
     * pass, the outcome's fields spliced in after its type; byte for byte what a tree of the same
     * fields gives (JournalCodecGoldenTest compares the two).
     */
    public static byte[] encodeOutcome(CommandId commandId, Outcome outcome) {
        if (outcome instanceof io.quire.journal.outcome.SchemaRegistered r && r.id() != null && r.version() != null
                && isPlainAscii(commandId.value())) {
            return registered(commandId, r);
        }
        byte[] fields = write(outcome);
        if (fields.length < 2 || fields[0] != '{' || fields[fields.length - 1] != '}') {
            throw new IllegalStateException("an outcome must encode as a JSON object");
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(fields.length + 64);
        try (com.fasterxml.jackson.core.JsonGenerator g = Json.MAPPER.createGenerator(out)
                .disable(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT)) {
            g.writeStartObject();
            g.writeStringField("commandId", commandId.value());
            g.writeFieldName("outcome");
            g.writeStartObject();
            g.writeStringField("type", outcome.type().wireName);
            g.flush();
            if (fields.length > 2) {
                out.write(',');
                out.write(fields, 1, fields.length - 2); // the fields, without their braces
            }
            out.write('}');
            out.write('}');
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    /**
     * The stored form of the one outcome nearly every record has, written without Jackson: the
     * same bytes (fields in alphabetical order, as {@link Json#MAPPER} sorts them), for a command
     * id that needs no escaping. JournalCodecGoldenTest compares the two.
     */
    private static byte[] registered(CommandId commandId, io.quire.journal.outcome.SchemaRegistered r) {
        String text = "{\"commandId\":\"" + commandId.value() + "\",\"outcome\":{\"type\":\""
                + OutcomeType.SCHEMA_REGISTERED.wireName + "\",\"created\":" + r.created() + ",\"id\":"
                + r.id().value() + ",\"version\":" + r.version().number() + "}}";
        return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Printable ASCII without a quote or a backslash: what JSON writes as it is. */
    private static boolean isPlainAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    /** A stored outcome and the command it answered. */
    public record StoredOutcome(CommandId commandId, Outcome outcome) {
    }

    public static StoredOutcome decodeOutcome(byte[] bytes) {
        try {
            JsonNode root = Json.MAPPER.readTree(bytes);
            ObjectNode o = ((ObjectNode) required(root, "outcome")).deepCopy();
            OutcomeType type = OutcomeType.fromWireName(o.remove("type").asText());
            return new StoredOutcome(CommandId.of(required(root, "commandId").asText()),
                    Json.MAPPER.treeToValue(o, type.javaType));
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
