package io.quire.client.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.squareup.wire.schema.Location;
import com.squareup.wire.schema.internal.parser.ProtoFileElement;
import com.squareup.wire.schema.internal.parser.ProtoParser;
import io.quire.client.plan.DesiredSubject.DesiredReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A folder of schemas as teams keep it in Git (docs/schemas-as-code.md): one file per subject in its
 * own language ({@code .avsc}, {@code .proto}, {@code .json}), named by the subject (its path in the
 * folder without the extension), an optional settings file beside it ({@code .yaml}: compatibility,
 * normalize, references, metadata, rule set, or a subject name the path cannot spell), and a
 * {@code contexts/NAME/} folder per named context. A Protobuf import of another file of the folder is
 * a reference to that file's subject by itself.
 */
public final class SchemaFolder {

    static final String CONTEXTS = "contexts";
    static final Map<String, String> TYPES = Map.of(".avsc", "AVRO", ".proto", "PROTOBUF", ".json", "JSON");
    static final Map<String, String> EXTENSIONS = Map.of("AVRO", ".avsc", "PROTOBUF", ".proto", "JSON", ".json");

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES))
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private SchemaFolder() {
    }

    /** The subjects the folder wants, sorted by subject; a file that cannot be read is an error naming it. */
    public static List<DesiredSubject> read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + " is not a folder");
        }
        Map<String, DesiredSubject> bySubject = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).filter(f -> !hidden(dir.relativize(f)))
                    .filter(f -> type(f) != null).sorted().toList();
        }
        Map<String, String> subjectOfFile = new HashMap<>(); // a path relative to its root (context) → subject
        List<Object[]> read = new ArrayList<>();
        for (Path f : files) {
            Path rel = dir.relativize(f);
            String context = context(rel);
            Path inRoot = context == null ? rel : rel.subpath(2, rel.getNameCount());
            FolderSettings settings = settings(f);
            String name = settings.subject() != null ? settings.subject() : withoutExtension(slashed(inRoot));
            String subject = context == null || name.startsWith(":") ? name : ":." + context + ":" + name;
            subjectOfFile.put((context == null ? "" : context) + '\u0000' + slashed(inRoot), subject);
            read.add(new Object[]{f, rel, context, settings, subject});
        }
        for (Object[] r : read) {
            Path f = (Path) r[0];
            Path rel = (Path) r[1];
            String context = (String) r[2];
            FolderSettings settings = (FolderSettings) r[3];
            String subject = (String) r[4];
            String type = settings.schemaType() != null ? settings.schemaType() : type(f);
            String text = Files.readString(f, StandardCharsets.UTF_8).stripTrailing();
            List<DesiredReference> refs = new ArrayList<>(settings.references() == null ? List.of()
                    : settings.references());
            if ("PROTOBUF".equals(type)) {
                for (String imported : imports(rel, text)) {
                    String target = subjectOfFile.get((context == null ? "" : context) + '\u0000' + imported);
                    boolean named = refs.stream().anyMatch(x -> imported.equals(x.name()));
                    if (target != null && !named) {
                        refs.add(new DesiredReference(imported, target, "latest"));
                    }
                }
            }
            DesiredSubject d = new DesiredSubject(subject, type, text, refs, settings.compatibility(),
                    settings.normalize(), settings.metadata(), settings.ruleSet(), slashed(rel));
            DesiredSubject before = bySubject.put(subject, d);
            if (before != null) {
                throw new IOException("subject " + subject + " is named twice: " + before.file() + " and " + d.file());
            }
        }
        return new ArrayList<>(bySubject.values());
    }

    /** Writes the subjects into the folder (a dump): a schema file each, and a settings file where one has any. */
    public static void write(Path dir, List<DesiredSubject> subjects) throws IOException {
        for (DesiredSubject d : subjects) {
            Path file = dir.resolve(fileOf(d.subject(), d.schemaType()));
            Files.createDirectories(file.getParent());
            Files.writeString(file, d.schema().stripTrailing() + "\n", StandardCharsets.UTF_8);
            FolderSettings settings = new FolderSettings(null, null, d.compatibility(), d.normalize(),
                    d.references().isEmpty() ? null : d.references(), d.metadata(), d.ruleSet());
            Path settingsFile = settingsOf(file);
            if (!settings.isEmpty()) {
                Files.writeString(settingsFile, YAML.writeValueAsString(settings), StandardCharsets.UTF_8);
            } else {
                Files.deleteIfExists(settingsFile);
            }
        }
    }

    /** Where a subject's schema file goes in a folder. */
    static Path fileOf(String subject, String schemaType) {
        String ext = EXTENSIONS.getOrDefault(schemaType == null ? "AVRO" : schemaType, ".avsc");
        if (subject.startsWith(":.") && subject.indexOf(':', 2) > 0) {
            int end = subject.indexOf(':', 2);
            return Path.of(CONTEXTS, subject.substring(2, end), subject.substring(end + 1) + ext);
        }
        return Path.of(subject + ext);
    }

    private static List<String> imports(Path rel, String text) {
        try {
            ProtoFileElement proto = ProtoParser.Companion.parse(Location.get(rel.toString()), text);
            List<String> out = new ArrayList<>(proto.getImports());
            out.addAll(proto.getPublicImports());
            return out;
        } catch (RuntimeException e) { // the registry says what is wrong with it, with its own parser
            return List.of();
        }
    }

    private static FolderSettings settings(Path schemaFile) throws IOException {
        Path file = settingsOf(schemaFile);
        if (!Files.isRegularFile(file)) {
            return FolderSettings.NONE;
        }
        try {
            FolderSettings s = YAML.readValue(file.toFile(), FolderSettings.class);
            return s == null ? FolderSettings.NONE : s;
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage().lines().findFirst().orElse(""), e);
        }
    }

    static Path settingsOf(Path schemaFile) {
        String name = schemaFile.getFileName().toString();
        return schemaFile.resolveSibling(name.substring(0, name.lastIndexOf('.')) + ".yaml");
    }

    private static String context(Path rel) {
        return rel.getNameCount() > 2 && rel.getName(0).toString().equals(CONTEXTS) ? rel.getName(1).toString() : null;
    }

    private static String type(Path f) {
        String n = f.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot < 0 ? null : TYPES.get(n.substring(dot));
    }

    private static boolean hidden(Path rel) {
        for (Path p : rel) {
            if (p.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private static String slashed(Path p) {
        return p.toString().replace('\\', '/');
    }

    private static String withoutExtension(String path) {
        return path.substring(0, path.lastIndexOf('.'));
    }
}
