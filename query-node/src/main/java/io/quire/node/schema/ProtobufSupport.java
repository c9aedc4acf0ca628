package io.quire.node.schema;

import com.squareup.wire.schema.Field;
import com.squareup.wire.schema.Location;
import com.squareup.wire.schema.internal.parser.EnumElement;
import com.squareup.wire.schema.internal.parser.FieldElement;
import com.squareup.wire.schema.internal.parser.MessageElement;
import com.squareup.wire.schema.internal.parser.OneOfElement;
import com.squareup.wire.schema.internal.parser.ProtoFileElement;
import com.squareup.wire.schema.internal.parser.ProtoParser;
import com.squareup.wire.schema.internal.parser.TypeElement;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Protobuf through Square Wire's schema parser. A schema is one {@code .proto} file; its imports
 * must be either built in ({@link #BUILT_IN}: Google's well-known and {@code google/type} files and
 * Confluent's own, available without registration) or references given with the schema (by
 * import path). The canonical form
 * is Wire's rendering of the parsed file ({@code toSchema()}, without its banner comment); the
 * normalised form also sorts the imports. Compatibility is in {@link ProtobufCompatibility}.
 */
public final class ProtobufSupport implements SchemaSupport<ProtobufSupport.Document> {

    private final boolean strictReserved;

    /** Confluent's rules. */
    public ProtobufSupport() {
        this(false);
    }

    /** With {@code strictReserved}, a new field may not take a number the earlier version reserved. */
    public ProtobufSupport(boolean strictReserved) {
        this.strictReserved = strictReserved;
    }

    /** A parsed file and the files its references name, by import path. */
    public record Document(ProtoFileElement file, Map<String, ProtoFileElement> references) {
    }

    @Override
    public SchemaType type() {
        return SchemaType.PROTOBUF;
    }

    @Override
    public Class<Document> form() {
        return Document.class;
    }

    @Override
    public ParsedSchema<Document> parse(String text, List<SchemaReference> references, Map<String, String> resolvedReferences) {
        try {
            return parseChecked(text, references, resolvedReferences);
        } catch (StackOverflowError e) {
            throw new InvalidSchemaException("Invalid schema: nested too deeply");
        }
    }

    private ParsedSchema parseChecked(String text, List<SchemaReference> references,
                                      Map<String, String> resolvedReferences) {
        var serialized = DescriptorToProto.parseSerialized(text);
        if (serialized != null) {
            text = DescriptorToProto.toProto(serialized); // Confluent clients send a base64 FileDescriptorProto
        }
        ProtoFileElement file = file("schema.proto", text);
        Map<String, ProtoFileElement> deps = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : resolvedReferences.entrySet()) {
            deps.put(e.getKey(), file(e.getKey(), e.getValue()));
        }
        List<String> imports = new ArrayList<>(file.getImports());
        imports.addAll(file.getPublicImports());
        for (String imp : imports) {
            if (!deps.containsKey(imp) && !wellKnown(imp)) {
                throw new InvalidSchemaException("Invalid schema: import \"" + imp
                        + "\" is neither a well-known type nor one of the schema's references");
            }
        }
        if (file.getTypes().isEmpty()) {
            // Only comments or options: nothing a serializer could use (found by the fuzz test: "////").
            throw new InvalidSchemaException("Invalid schema: the file defines no message or enum");
        }
        checkMessages(file.getTypes(), "");
        String canonical = render(file);
        return new ParsedSchema<>(SchemaType.PROTOBUF, canonical, references,
                Fingerprints.of(SchemaType.PROTOBUF, canonical, references), new Document(file, deps));
    }

    /** Sorted imports, then Wire's rendering: the same file written in another order of imports is one schema. */
    @Override
    public String normalize(String canonical) {
        ProtoFileElement f = file("schema.proto", canonical);
        ProtoFileElement sorted = new ProtoFileElement(f.getLocation(), f.getPackageName(), f.getSyntax(),
                f.getImports().stream().sorted().toList(), f.getPublicImports().stream().sorted().toList(),
                f.getWeakImports().stream().sorted().toList(), f.getTypes(), f.getServices(),
                f.getExtendDeclarations(), f.getOptions());
        return render(sorted);
    }

    /** Wire's rendering without the banner comment it puts first ("formatted by Wire", "Source: …"). */
    static String render(ProtoFileElement file) {
        String text = file.toSchema();
        while (text.startsWith("//")) {
            int eol = text.indexOf('\n');
            text = eol < 0 ? "" : text.substring(eol + 1);
        }
        return text.startsWith("\n") ? text.substring(1) : text;
    }

    /**
     * The files a schema may import without registering them, as the Confluent server allows:
     * Google's well-known types (shipped by Wire), Confluent's own (ours, in the jar) and the
     * {@code google/type} set (from Google's common protos).
     */
    static final Set<String> BUILT_IN = Set.of("confluent/meta.proto", "confluent/type/decimal.proto",
            "google/type/calendar_period.proto", "google/type/color.proto", "google/type/date.proto",
            "google/type/datetime.proto", "google/type/dayofweek.proto", "google/type/decimal.proto",
            "google/type/expr.proto", "google/type/fraction.proto", "google/type/interval.proto",
            "google/type/latlng.proto", "google/type/money.proto", "google/type/month.proto",
            "google/type/phone_number.proto", "google/type/postal_address.proto", "google/type/quaternion.proto",
            "google/type/timeofday.proto");

    static boolean wellKnown(String path) {
        return (path.startsWith("google/protobuf/") || BUILT_IN.contains(path))
                && ProtobufSupport.class.getClassLoader().getResource(path) != null;
    }

    private static ProtoFileElement file(String name, String text) {
        try {
            return ProtoParser.Companion.parse(Location.get(name), text);
        } catch (RuntimeException e) {
            throw new InvalidSchemaException("Invalid schema " + AvroSupport.abbreviate(text)
                    + ", details: " + e.getMessage());
        } catch (StackOverflowError e) {
            throw new InvalidSchemaException("Invalid schema: nested too deeply");
        }
    }

    /** What the parser lets through but protoc refuses: a field number or name used twice in a message. */
    private static void checkMessages(List<TypeElement> types, String scope) {
        for (TypeElement t : types) {
            if (t instanceof MessageElement m) {
                Set<Integer> tags = new HashSet<>();
                Set<String> names = new HashSet<>();
                for (FieldElement f : allFields(m)) {
                    if (f.getTag() < 1 || f.getTag() > 536_870_911 || (f.getTag() >= 19_000 && f.getTag() <= 19_999)) {
                        throw new InvalidSchemaException("Invalid schema: field " + scope
                                + m.getName() + "." + f.getName() + " has the invalid number " + f.getTag());
                    }
                    if (!tags.add(f.getTag()) || !names.add(f.getName())) {
                        throw new InvalidSchemaException("Invalid schema: field " + scope
                                + m.getName() + "." + f.getName() + " repeats a field number or name");
                    }
                }
            }
            checkMessages(t.getNestedTypes(), scope + t.getName() + ".");
        }
    }

    /** A message's fields, those inside oneofs included. */
    static List<FieldElement> allFields(MessageElement m) {
        List<FieldElement> out = new ArrayList<>(m.getFields());
        for (OneOfElement o : m.getOneOfs()) {
            out.addAll(o.getFields());
        }
        return out;
    }

    static boolean isEnum(TypeElement t) {
        return t instanceof EnumElement;
    }

    static boolean isRequired(FieldElement f) {
        return f.getLabel() == Field.Label.REQUIRED;
    }

    @Override
    public Set<String> topLevelFields(ParsedSchema<Document> schema) {
        Set<String> out = new LinkedHashSet<>();
        for (TypeElement t : schema.parsed().file().getTypes()) {
            if (t instanceof MessageElement m) {
                m.getFields().forEach(f -> out.add(f.getName()));
                for (OneOfElement o : m.getOneOfs()) {
                    o.getFields().forEach(f -> out.add(f.getName()));
                }
                break; // the first message, as Confluent's descriptor of the schema is
            }
        }
        return out;
    }

    @Override
    public List<String> readErrors(ParsedSchema<Document> reader, ParsedSchema<Document> writer, String readerRole, String writerRole) {
        return new ProtobufCompatibility(writer.parsed(), reader.parsed(), readerRole, writerRole,
                strictReserved).check();
    }
}
