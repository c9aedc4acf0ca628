package io.quire.node.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.client.ConfigRequest;
import io.quire.journal.apply.Applier;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.InMemoryKv;
import io.quire.journal.view.RegistryView;
import io.quire.node.config.QuireConfig;
import io.quire.node.ops.ImportConfluentCommand.Target;
import io.quire.node.ops.SourceState.SourceSchema;
import io.quire.node.schema.Fingerprints;
import io.quire.node.search.SchemaTerms;
import io.quire.node.service.SchemaParsing;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * {@code quire.jar import-apicurio}: reads the export of an Apicurio Registry 3 (the zip its
 * {@code GET /apis/registry/v3/admin/export} answers) and writes the registry it holds into a
 * Quire node in IMPORT mode: every version of group {@code default} as the subject version of the
 * same name, its content id as the Confluent id, its global id and version kept, DISABLED versions
 * soft-deleted, DEPRECATED ones marked, references, and COMPATIBILITY rules as compatibility
 * levels. What cannot be mapped is listed first, and then nothing is written.
 */
public final class ImportApicurioCommand {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TYPES = Set.of("AVRO", "JSON", "PROTOBUF");
    private static final Set<String> LEVELS = Set.of("NONE", "BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD",
            "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE");

    private ImportApicurioCommand() {
    }

    /** What an export holds that the import reads; {@code refusals} lists what it cannot map, {@code notes} what it leaves. */
    static final class Export {
        final SourceState state = new SourceState();
        final List<String> refusals = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        int contents;
        int versions;
    }

    public static int run(String[] args, PrintStream out) throws Exception {
        Flags flags = new Flags(args, Set.of("file", "node", "user", "force", "concurrency"));
        if (flags.help) {
            out.println("""
                    usage: java -jar quire.jar import-apicurio --file export.zip --node http://quire:8081
                           [--user name:password] [--force true] [--concurrency 8]
                    Reads an Apicurio Registry 3 export (GET /apis/registry/v3/admin/export) and writes it into
                    Quire with its ids kept: each version of group 'default' becomes the subject version of the
                    same artifact id and number, its content id the Confluent schema id, its global id the same
                    global id in Quire's Apicurio API; DISABLED versions are soft-deleted, DEPRECATED ones marked;
                    references are kept; COMPATIBILITY rules become compatibility levels (no global rule: NONE,
                    which is what Apicurio does then). Anything it cannot map (other groups, artifact types other
                    than AVRO, JSON and PROTOBUF, version names that are not numbers, drafts, and whatever a dry
                    run through Quire's own parsers and applier would refuse, such as two contents that are one
                    schema to Quire) is listed and then nothing is written. Running it again changes nothing.
                    Exit 0 when everything was imported (or was already there), 2 when refused, 1 otherwise.""");
            return 0;
        }
        Path file = Path.of(flags.required("file"));
        Export export = read(file);
        if (export.refusals.isEmpty()) {
            dryRun(export);
        }
        out.printf("read %s: %d contents, %d versions of %d artifacts, %d compatibility settings%n", file,
                export.contents, export.versions,
                export.state.schemas.values().stream().map(SourceSchema::subject).distinct().count(),
                export.state.configs.size());
        export.notes.forEach(n -> out.println("not carried over: " + n));
        if (!export.refusals.isEmpty()) {
            out.printf("cannot import %s: %d thing(s) Quire cannot map, nothing was written:%n", file,
                    export.refusals.size());
            export.refusals.forEach(r -> out.println("  " + r));
            return 2;
        }
        Target target = new Target(flags.required("node").strip(), flags.basicAuthorization(),
                Integer.parseInt(flags.own.getOrDefault("concurrency", "8")));
        return ImportConfluentCommand.write(export.state, target,
                Boolean.parseBoolean(flags.own.getOrDefault("force", "false")), out);
    }

    /** Reads an export zip into the source state the Confluent import writes, with what it refuses. */
    static Export read(Path file) throws IOException {
        Export ex = new Export();
        Map<Long, JsonNode> contentMeta = new TreeMap<>();
        Map<String, String> contentData = new TreeMap<>(); // by content hash (the entry's name)
        Map<Long, String> hashOf = new TreeMap<>();
        List<JsonNode> versions = new ArrayList<>();
        Map<String, String> types = new TreeMap<>(); // artifact id → type, in group default
        boolean globalCompatibility = false;
        try (ZipFile zip = new ZipFile(file.toFile())) {
            for (ZipEntry e : Collections.list(zip.entries())) {
                if (e.isDirectory()) {
                    continue;
                }
                String name = e.getName();
                String base = name.substring(name.lastIndexOf('/') + 1);
                if (base.endsWith(".Content.data")) {
                    contentData.put(base.substring(0, base.length() - ".Content.data".length()), text(zip, e));
                    continue;
                }
                if (!base.endsWith(".json")) {
                    ex.refusals.add(name + ": an entry of an unknown kind");
                    continue;
                }
                String kind = base.substring(base.lastIndexOf('.', base.length() - 6) + 1, base.length() - 5);
                JsonNode n = JSON.readTree(text(zip, e));
                switch (kind) {
                    case "Manifest" -> {
                        String v = n.path("exportVersion").asText("");
                        if (!v.startsWith("3.")) {
                            ex.refusals.add(name + ": export version " + v + " (this reads Apicurio 3 exports, 3.x)");
                        }
                    }
                    case "Content" -> {
                        long id = n.path("contentId").asLong();
                        contentMeta.put(id, n);
                        hashOf.put(id, base.substring(0, base.length() - ".Content.json".length()));
                    }
                    case "ArtifactVersion" -> versions.add(n);
                    case "Artifact" -> {
                        if (isDefault(n.path("groupId"))) {
                            types.put(n.path("artifactId").asText(), n.path("artifactType").asText());
                        }
                        if (!isDefault(n.path("groupId"))) {
                            ex.refusals.add("artifact " + n.path("artifactId").asText() + " of group "
                                    + n.path("groupId").asText() + ": Quire serves the group 'default' only");
                        } else if (!TYPES.contains(n.path("artifactType").asText())) {
                            ex.refusals.add("artifact " + n.path("artifactId").asText() + ": type "
                                    + n.path("artifactType").asText() + " (Quire stores AVRO, JSON and PROTOBUF)");
                        }
                    }
                    case "ArtifactRule" -> {
                        String artifact = n.path("artifactId").asText();
                        rule(ex, n.path("type").asText(), n.path("configuration").asText(), artifact,
                                isDefault(n.path("groupId")));
                    }
                    case "GlobalRule" -> {
                        globalCompatibility |= "COMPATIBILITY".equals(n.path("ruleType").asText());
                        rule(ex, n.path("ruleType").asText(), n.path("configuration").asText(), "", true);
                    }
                    case "Group" -> {
                        // a group by itself holds nothing; its artifacts are refused one by one above
                    }
                    case "Branch" -> {
                        if (!"latest".equals(n.path("branchId").asText("latest"))) {
                            ex.notes.add("branch " + n.path("branchId").asText() + " of artifact "
                                    + n.path("artifactId").asText() + " (Quire keeps versions, not branches)");
                        }
                    }
                    case "Comment" -> ex.notes.add("comments on versions (" + name + ")");
                    default -> ex.refusals.add(name + ": an entity of kind " + kind + " this import does not know");
                }
            }
        }
        ex.contents = contentMeta.size();
        for (JsonNode v : versions) {
            String artifact = v.path("artifactId").asText();
            String what = "version " + v.path("version").asText() + " of artifact " + artifact;
            if (!isDefault(v.path("groupId"))) {
                continue; // refused with its artifact
            }
            ex.versions++;
            String versionName = v.path("version").asText();
            if (!versionName.matches("[1-9][0-9]{0,8}")) {
                ex.refusals.add(what + ": a version name that is not a number (Quire numbers versions 1, 2, 3…)");
                continue;
            }
            String state = v.path("state").asText("ENABLED");
            if (!Set.of("ENABLED", "DISABLED", "DEPRECATED").contains(state)) {
                ex.refusals.add(what + ": state " + state + " (drafts are not imported)");
                continue;
            }
            long contentId = v.path("contentId").asLong();
            JsonNode meta = contentMeta.get(contentId);
            String text = meta == null ? null : contentData.get(hashOf.get(contentId));
            if (text == null) {
                ex.refusals.add(what + ": its content " + contentId + " is not in the export");
                continue;
            }
            if (contentId < 1 || contentId > Integer.MAX_VALUE) {
                ex.refusals.add(what + ": content id " + contentId + " is not a positive 32-bit number");
                continue;
            }
            List<SchemaReference> refs = new ArrayList<>();
            String serialized = meta.path("serializedReferences").asText("");
            if (!serialized.isEmpty() && !"null".equals(serialized)) {
                for (JsonNode r : JSON.readTree(serialized)) {
                    if (!isDefault(r.path("groupId")) || !r.path("version").asText().matches("[1-9][0-9]{0,8}")) {
                        ex.refusals.add(what + ": reference " + r.path("name").asText() + " names "
                                + r.path("groupId").asText() + "/" + r.path("artifactId").asText() + " version "
                                + r.path("version").asText() + " (a numbered version of group 'default' is needed)");
                        continue;
                    }
                    refs.add(new SchemaReference(r.path("name").asText(),
                            Subject.of(r.path("artifactId").asText()),
                            Version.of(Integer.parseInt(r.path("version").asText()))));
                }
            }
            String type = types.get(artifact);
            if (type == null || !TYPES.contains(type)) {
                continue; // refused with its artifact (or an artifact the export does not describe)
            }
            SourceSchema s = new SourceSchema(artifact, Integer.parseInt(versionName), contentId, type, text, refs,
                    null, null, "DISABLED".equals(state), v.path("globalId").asLong(), "DEPRECATED".equals(state));
            ex.state.schemas.put(SourceState.key(artifact, s.version()), s);
        }
        if (!globalCompatibility) {
            ex.state.configs.put("", ConfigRequest.level("NONE"));
            ex.notes.add("(none: the export has no global COMPATIBILITY rule, so Apicurio checked nothing; Quire's "
                    + "global level is set to NONE to keep that)");
        }
        return ex;
    }

    /**
     * Applies the whole import to an empty in-memory view with Quire's own parsers and applier
     * before anything is sent, so that what the node would refuse (two Apicurio contents that are
     * one schema to Quire, 42207; a schema that does not parse; a reference that does not resolve)
     * is listed with the rest and nothing is written.
     */
    static void dryRun(Export ex) {
        SchemaParsing parsing = new SchemaParsing(
                QuireConfig.from(true, new String[0], Map.of()).limits(), false);
        Applier applier = new Applier();
        InMemoryKv kv = new InMemoryKv();
        RegistryView view = new RegistryView(kv);
        long[] offset = {0};
        Function<Command, Outcome> apply = c -> {
            var r = applier.apply(view, Offset.of(offset[0]++),
                    Envelope.of(CommandId.of("dry-run-" + offset[0]),
                            "import-apicurio", Principal.of("import"), 0L, c));
            kv.apply(r.changes());
            return r.outcome();
        };
        apply.apply(new SetMode(null, Mode.IMPORT));
        List<SourceSchema> todo = new ArrayList<>(ex.state.schemas.values());
        todo.sort(Comparator.comparingLong(SourceSchema::id).thenComparing(SourceSchema::subject)
                .thenComparingInt(SourceSchema::version));
        Map<SourceSchema, String> failed = new LinkedHashMap<>();
        for (int pass = 1; pass <= 5 && !todo.isEmpty(); pass++) { // a schema may come before what it references
            failed.clear();
            for (SourceSchema s : todo) {
                Subject subject = Subject.of(s.subject());
                List<SchemaReference> refs = s.references();
                try {
                    var parsed = parsing.parse(view, subject.context(),
                            SchemaType.valueOf(s.schemaType()), s.schema(), refs);
                    var outcome = apply.apply(new ImportSchema(subject, parsed.type(),
                            parsed.canonical(), parsed.references(),
                            Fingerprints.withContract(parsed.fingerprint(), null, null),
                            SchemaId.of(s.id()), Version.of(s.version()),
                            null, null, s.globalId(), s.deprecated(), SchemaTerms.of(parsed)));
                    if (outcome instanceof Rejected rejected) {
                        failed.put(s, rejected.error().code + " " + rejected.message());
                    }
                } catch (RuntimeException e) {
                    failed.put(s, e.getMessage());
                }
            }
            if (failed.size() == todo.size()) {
                break;
            }
            todo = new ArrayList<>(failed.keySet());
        }
        failed.forEach((s, why) -> ex.refusals.add("version " + s.version() + " of artifact " + s.subject()
                + " (content id " + s.id() + "): Quire would refuse it: " + why));
    }

    private static void rule(Export ex, String type, String config, String artifact, boolean defaultGroup) {
        String where = artifact.isEmpty() ? "the global " + type + " rule" : "the " + type + " rule of " + artifact;
        if (!defaultGroup) {
            return; // refused with its artifact
        }
        if ("COMPATIBILITY".equals(type)) {
            if (LEVELS.contains(config)) {
                ex.state.configs.put(artifact, ConfigRequest.level(config));
            } else {
                ex.refusals.add(where + ": level " + config + " has no Quire equivalent");
            }
        } else {
            ex.notes.add(where + " (" + config + "): Quire always checks that a schema parses and that its "
                    + "references resolve, and has no rule of that name");
        }
    }

    private static boolean isDefault(JsonNode group) {
        return group == null || group.isNull() || group.isMissingNode() || "default".equals(group.asText());
    }

    private static String text(ZipFile zip, ZipEntry e) throws IOException {
        try (InputStream in = zip.getInputStream(e)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
