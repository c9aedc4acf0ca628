package io.quire.node.follow;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quire.journal.command.Command;
import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteMode;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.DeleteVersion;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.RegisterRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one record of a Confluent Schema Registry's {@code _schemas} topic asks of Quire, given
 * what the view holds now: nothing, a schema to import with its id and version, or one journal
 * command (two for a schema the topic shows only as already deleted, as after compaction).
 * Keys and values are Confluent's JSON ({@code SchemaKey}/{@code SchemaValue}, {@code ConfigKey},
 * {@code ModeKey}, {@code DeleteSubjectKey}, {@code ClearSubjectKey}, {@code NoopKey}...); a
 * tombstone (no value) removes what its key names.
 */
final class SourceRecords {

    static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    /**
     * One step of applying a source record. Its part number is fixed by what it does (a schema's
     * import is part 0, its soft delete part 1), so that a record read again after a restart that
     * stopped half-way resumes at the same part.
     */
    sealed interface Step permits Import, Write {
        int part();
    }

    /** A schema version to import with the source's id and version. */
    record Import(Subject subject, RegisterRequest request) implements Step {
        @Override
        public int part() {
            return 0;
        }
    }

    /** A journal command as it is. */
    record Write(Command command, int part) implements Step {
        Write(Command command) {
            this(command, 0);
        }
    }

    /** A record's key and value as JSON (no value: a tombstone), read once. */
    record Parsed(JsonNode key, JsonNode value) {

        /** What the record touches, for ordering: its subject, or the registry's settings. */
        Object touches() {
            JsonNode s = key.get("subject");
            return s == null || s.isNull() ? "(registry)" : s.asText();
        }

        /**
         * Whether the record's steps can only be decided once everything sent before is applied: all
         * but a new schema version without references (settings, deletes, tombstones, references).
         */
        boolean needsSettledView() {
            if (value == null || !"SCHEMA".equals(key.path("keytype").asText())) {
                return true;
            }
            JsonNode refs = value.path("references");
            return refs.isArray() && !refs.isEmpty();
        }
    }

    /** A record Quire cannot read: the follower stops on it, or skips it when told to. */
    static final class Unreadable extends Exception {
        Unreadable(String why) {
            super(why);
        }
    }

    private SourceRecords() {
    }

    /** The record's key and value, or why Quire cannot read them. */
    static Parsed parse(byte[] keyBytes, byte[] valueBytes) throws Unreadable {
        if (keyBytes == null) {
            throw new Unreadable("a record without a key");
        }
        JsonNode key;
        JsonNode value;
        try {
            key = JSON.readTree(keyBytes);
            value = valueBytes == null ? null : JSON.readTree(valueBytes);
        } catch (IOException e) {
            throw new Unreadable("not JSON: " + e.getMessage());
        }
        if (key == null || !key.isObject() || !key.path("keytype").isTextual()) {
            throw new Unreadable("a key without a keytype: " + key);
        }
        if (value != null && !value.isObject()) {
            throw new Unreadable("a value that is not a JSON object: " + value);
        }
        return new Parsed(key, value);
    }

    /** What the record asks of Quire, given the view now. */
    static List<Step> steps(RegistryView view, Parsed record) throws Unreadable {
        JsonNode key = record.key();
        JsonNode value = record.value();
        String type = key.get("keytype").asText();
        return switch (type) {
            case "SCHEMA" -> schema(view, subject(key, true), key, value);
            case "CONFIG" -> config(view, subject(key, false), value);
            case "MODE" -> mode(view, subject(key, false), value);
            case "DELETE_SUBJECT" -> deleteSubject(view, subject(key, true), false);
            case "CLEAR_SUBJECT" -> deleteSubject(view, subject(key, true), true);
            // NOOP marks a reader's position; a context comes into being with its first schema; the
            // rest (associations, keys of the DEK registry, tenants) are not followed: see the docs
            default -> List.of();
        };
    }

    private static Subject subject(JsonNode key, boolean required) throws Unreadable {
        JsonNode s = key.get("subject");
        if (s == null || s.isNull()) {
            if (required) {
                throw new Unreadable("a " + key.path("keytype").asText() + " key without a subject");
            }
            return null;
        }
        String raw = s.asText();
        String name = raw.startsWith(":.:") ? raw.substring(3) : raw; // the default context spelled out
        return name.isEmpty() && !required ? null : Subject.of(name); // "": the registry's own setting
    }

    private static List<Step> schema(RegistryView view, Subject subject, JsonNode key, JsonNode value) throws Unreadable {
        int number = key.path("version").asInt(-1);
        if (number < 1) {
            throw new Unreadable("a SCHEMA key without a version: " + key);
        }
        Version version = Version.of(number);
        Optional<VersionRecord> here = view.version(subject, version);
        if (value == null) { // a permanent delete of that version
            return here.isEmpty() ? List.of() : List.of(new Write(new DeleteVersion(subject, version, true)));
        }
        if (!value.path("id").canConvertToInt() || !value.path("schema").isTextual()) {
            throw new Unreadable("a SCHEMA value without an id or a schema: " + key);
        }
        boolean deleted = value.path("deleted").asBoolean(false);
        List<Step> steps = new ArrayList<>();
        if (here.isEmpty()) {
            ObjectNode body = JSON.createObjectNode();
            body.put("schema", value.get("schema").asText());
            body.put("schemaType", value.path("schemaType").asText("AVRO"));
            for (String f : new String[]{"references", "metadata", "ruleSet"}) {
                JsonNode part = value.get(f);
                if (part != null && !part.isNull()) {
                    body.set(f, part);
                }
            }
            body.put("id", value.get("id").asInt());
            body.put("version", number);
            try {
                steps.add(new Import(subject, JSON.treeToValue(body, RegisterRequest.class)));
            } catch (IOException e) {
                throw new Unreadable("a SCHEMA value Quire cannot read: " + e.getMessage());
            }
        }
        boolean liveHere = here.map(v -> !v.deleted()).orElse(true);
        if (deleted && liveHere) {
            steps.add(new Write(new DeleteVersion(subject, version, false), 1));
        }
        return steps;
    }

    private static List<Step> config(RegistryView view, Subject subject, JsonNode value) throws Unreadable {
        if (value == null) {
            boolean has = subject == null ? view.globalLevel().isPresent() : view.subjectLevel(subject).isPresent();
            return has ? List.of(new Write(new DeleteConfig(subject))) : List.of();
        }
        String level = value.path("compatibilityLevel").asText(value.path("compatibility").asText(""));
        CompatibilityLevel parsed = level.isEmpty() ? null : CompatibilityLevel.parse(level)
                .orElseThrow(() -> new Unreadable("an unknown compatibility level: " + level));
        Boolean normalize = value.has("normalize") && !value.get("normalize").isNull()
                ? value.get("normalize").asBoolean() : null;
        if (parsed == null && normalize == null) {
            return List.of();
        }
        return List.of(new Write(new SetConfig(subject, parsed, normalize, null, List.of())));
    }

    private static List<Step> mode(RegistryView view, Subject subject, JsonNode value) throws Unreadable {
        if (value == null) {
            boolean has = subject == null ? view.globalMode().isPresent() : view.subjectMode(subject).isPresent();
            return has ? List.of(new Write(new DeleteMode(subject))) : List.of();
        }
        String mode = value.path("mode").asText("");
        try {
            return List.of(new Write(new SetMode(subject, Mode.valueOf(mode))));
        } catch (IllegalArgumentException e) {
            throw new Unreadable("an unknown mode: " + mode);
        }
    }

    private static List<Step> deleteSubject(RegistryView view, Subject subject, boolean permanent) {
        boolean any = false;
        for (VersionRecord v : view.versions(subject)) {
            if (permanent ? v.deleted() : !v.deleted()) {
                any = true;
                break;
            }
        }
        return any ? List.of(new Write(new DeleteSubject(subject, permanent))) : List.of();
    }
}
