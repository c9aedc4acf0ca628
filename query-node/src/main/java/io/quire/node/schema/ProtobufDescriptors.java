package io.quire.node.schema;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.InvalidProtocolBufferException;
import com.squareup.wire.Syntax;
import com.squareup.wire.schema.Field;
import com.squareup.wire.schema.Location;
import com.squareup.wire.schema.internal.parser.EnumConstantElement;
import com.squareup.wire.schema.internal.parser.EnumElement;
import com.squareup.wire.schema.internal.parser.FieldElement;
import com.squareup.wire.schema.internal.parser.MessageElement;
import com.squareup.wire.schema.internal.parser.OneOfElement;
import com.squareup.wire.schema.internal.parser.ProtoFileElement;
import com.squareup.wire.schema.internal.parser.ProtoParser;
import com.squareup.wire.schema.internal.parser.TypeElement;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The "serialized" form of a Protobuf schema that Confluent's clients use: a base64
 * {@code FileDescriptorProto}. Registering one turns it into {@code .proto} text (so a schema
 * registered either way is one schema with one id); reading with {@code format=serialized} turns
 * the stored text back into a descriptor, with named types resolved to their full names.
 */
public final class ProtobufDescriptors {

    private static final Pattern BASE64 = Pattern.compile("^[A-Za-z0-9+/=\\s]+$");
    private static final Map<String, FieldDescriptorProto.Type> SCALARS = new HashMap<>();
    private static final Map<String, Map<String, Boolean>> WELL_KNOWN = new ConcurrentHashMap<>();

    static {
        SCALARS.put("double", FieldDescriptorProto.Type.TYPE_DOUBLE);
        SCALARS.put("float", FieldDescriptorProto.Type.TYPE_FLOAT);
        SCALARS.put("int64", FieldDescriptorProto.Type.TYPE_INT64);
        SCALARS.put("uint64", FieldDescriptorProto.Type.TYPE_UINT64);
        SCALARS.put("int32", FieldDescriptorProto.Type.TYPE_INT32);
        SCALARS.put("fixed64", FieldDescriptorProto.Type.TYPE_FIXED64);
        SCALARS.put("fixed32", FieldDescriptorProto.Type.TYPE_FIXED32);
        SCALARS.put("bool", FieldDescriptorProto.Type.TYPE_BOOL);
        SCALARS.put("string", FieldDescriptorProto.Type.TYPE_STRING);
        SCALARS.put("bytes", FieldDescriptorProto.Type.TYPE_BYTES);
        SCALARS.put("uint32", FieldDescriptorProto.Type.TYPE_UINT32);
        SCALARS.put("sfixed32", FieldDescriptorProto.Type.TYPE_SFIXED32);
        SCALARS.put("sfixed64", FieldDescriptorProto.Type.TYPE_SFIXED64);
        SCALARS.put("sint32", FieldDescriptorProto.Type.TYPE_SINT32);
        SCALARS.put("sint64", FieldDescriptorProto.Type.TYPE_SINT64);
    }

    private ProtobufDescriptors() {
    }

    /** The descriptor inside {@code text} when it is a base64 {@code FileDescriptorProto}; null otherwise. */
    static FileDescriptorProto parseSerialized(String text) {
        String trimmed = text.strip();
        if (trimmed.isEmpty() || !BASE64.matcher(trimmed).matches() || trimmed.contains("syntax")) {
            return null;
        }
        try {
            FileDescriptorProto d = FileDescriptorProto.parseFrom(Base64.getMimeDecoder().decode(trimmed));
            return d.getMessageTypeCount() + d.getEnumTypeCount() > 0 ? d : null;
        } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
            return null;
        }
    }

    // --- descriptor -> .proto text ----------------------------------------------------------------

    static String toProto(FileDescriptorProto d) {
        StringBuilder sb = new StringBuilder();
        boolean proto3 = "proto3".equals(d.getSyntax());
        sb.append("syntax = \"").append(proto3 ? "proto3" : "proto2").append("\";\n");
        if (!d.getPackage().isEmpty()) {
            sb.append("package ").append(d.getPackage()).append(";\n");
        }
        for (String dep : d.getDependencyList()) {
            sb.append("import \"").append(dep).append("\";\n");
        }
        for (DescriptorProto m : d.getMessageTypeList()) {
            message(sb, m, proto3, "");
        }
        for (EnumDescriptorProto e : d.getEnumTypeList()) {
            enumeration(sb, e, "");
        }
        return sb.toString();
    }

    private static void message(StringBuilder sb, DescriptorProto m, boolean proto3, String indent) {
        sb.append(indent).append("message ").append(m.getName()).append(" {\n");
        String in = indent + "  ";
        Map<String, DescriptorProto> mapEntries = new HashMap<>();
        for (DescriptorProto nested : m.getNestedTypeList()) {
            if (nested.getOptions().getMapEntry()) {
                mapEntries.put(nested.getName(), nested);
            }
        }
        List<List<FieldDescriptorProto>> oneOfs = new ArrayList<>();
        for (int i = 0; i < m.getOneofDeclCount(); i++) {
            oneOfs.add(new ArrayList<>());
        }
        for (FieldDescriptorProto f : m.getFieldList()) {
            if (f.hasOneofIndex() && !f.getProto3Optional()) {
                oneOfs.get(f.getOneofIndex()).add(f);
                continue;
            }
            sb.append(in);
            String entry = simple(f.getTypeName());
            if (f.getLabel() == FieldDescriptorProto.Label.LABEL_REPEATED && mapEntries.containsKey(entry)) {
                DescriptorProto e = mapEntries.get(entry);
                sb.append("map<").append(typeName(e.getField(0))).append(", ").append(typeName(e.getField(1)))
                        .append("> ");
            } else {
                if (f.getLabel() == FieldDescriptorProto.Label.LABEL_REPEATED) {
                    sb.append("repeated ");
                } else if (f.getLabel() == FieldDescriptorProto.Label.LABEL_REQUIRED) {
                    sb.append("required ");
                } else if (!proto3 || f.getProto3Optional()) {
                    sb.append("optional ");
                }
                sb.append(typeName(f)).append(' ');
            }
            sb.append(f.getName()).append(" = ").append(f.getNumber()).append(";\n");
        }
        for (int i = 0; i < oneOfs.size(); i++) {
            if (oneOfs.get(i).isEmpty()) {
                continue; // the synthetic oneof of a proto3 optional field
            }
            sb.append(in).append("oneof ").append(m.getOneofDecl(i).getName()).append(" {\n");
            for (FieldDescriptorProto f : oneOfs.get(i)) {
                sb.append(in).append("  ").append(typeName(f)).append(' ').append(f.getName()).append(" = ")
                        .append(f.getNumber()).append(";\n");
            }
            sb.append(in).append("}\n");
        }
        for (DescriptorProto nested : m.getNestedTypeList()) {
            if (!nested.getOptions().getMapEntry()) {
                message(sb, nested, proto3, in);
            }
        }
        for (EnumDescriptorProto e : m.getEnumTypeList()) {
            enumeration(sb, e, in);
        }
        for (DescriptorProto.ReservedRange r : m.getReservedRangeList()) {
            sb.append(in).append("reserved ").append(r.getStart());
            if (r.getEnd() - 1 > r.getStart()) {
                sb.append(" to ").append(r.getEnd() - 1);
            }
            sb.append(";\n");
        }
        sb.append(indent).append("}\n");
    }

    private static void enumeration(StringBuilder sb, EnumDescriptorProto e, String indent) {
        sb.append(indent).append("enum ").append(e.getName()).append(" {\n");
        for (EnumValueDescriptorProto v : e.getValueList()) {
            sb.append(indent).append("  ").append(v.getName()).append(" = ").append(v.getNumber()).append(";\n");
        }
        sb.append(indent).append("}\n");
    }

    private static String typeName(FieldDescriptorProto f) {
        if (f.hasTypeName() && !f.getTypeName().isEmpty()) {
            return f.getTypeName();
        }
        return f.getType().name().substring("TYPE_".length()).toLowerCase(Locale.ROOT);
    }

    private static String simple(String typeName) {
        int dot = typeName.lastIndexOf('.');
        return dot < 0 ? typeName : typeName.substring(dot + 1);
    }

    // --- .proto text -> descriptor ----------------------------------------------------------------

    /** The base64 descriptor of a stored schema; {@code references} maps import paths to their texts. */
    public static String serialized(String text, Map<String, String> references) {
        ProtoFileElement file = ProtoParser.Companion.parse(Location.get("schema.proto"), text);
        Map<String, Boolean> known = new HashMap<>(); // full name (with leading dot) -> is a message
        collectTypes(file.getTypes(), prefix(file.getPackageName()), known);
        for (String imp : file.getImports()) {
            if (references.containsKey(imp)) {
                ProtoFileElement dep = ProtoParser.Companion.parse(Location.get(imp), references.get(imp));
                collectTypes(dep.getTypes(), prefix(dep.getPackageName()), known);
            } else {
                known.putAll(wellKnown(imp));
            }
        }
        FileDescriptorProto.Builder b = FileDescriptorProto.newBuilder().setName("schema.proto")
                .addAllDependency(file.getImports());
        if (file.getPackageName() != null) {
            b.setPackage(file.getPackageName());
        }
        boolean proto3 = file.getSyntax() == Syntax.PROTO_3;
        b.setSyntax(proto3 ? "proto3" : "proto2");
        String scope = prefix(file.getPackageName());
        for (TypeElement t : file.getTypes()) {
            if (t instanceof MessageElement m) {
                b.addMessageType(message(m, scope + m.getName(), proto3, known));
            } else if (t instanceof EnumElement e) {
                b.addEnumType(enumeration(e));
            }
        }
        return Base64.getEncoder().encodeToString(b.build().toByteArray());
    }

    private static String prefix(String pkg) {
        return pkg == null || pkg.isEmpty() ? "." : "." + pkg + ".";
    }

    private static void collectTypes(List<TypeElement> types, String scope, Map<String, Boolean> known) {
        for (TypeElement t : types) {
            known.put(scope + t.getName(), t instanceof MessageElement);
            collectTypes(t.getNestedTypes(), scope + t.getName() + ".", known);
        }
    }

    private static Map<String, Boolean> wellKnown(String path) {
        return WELL_KNOWN.computeIfAbsent(path, p -> {
            Map<String, Boolean> out = new HashMap<>();
            try (InputStream in = ProtobufDescriptors.class.getClassLoader().getResourceAsStream(p)) {
                if (in != null) {
                    ProtoFileElement f = ProtoParser.Companion.parse(Location.get(p),
                            new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    collectTypes(f.getTypes(), prefix(f.getPackageName()), out);
                }
            } catch (IOException e) {
                // an unreadable resource: its types stay unknown
            }
            return out;
        });
    }

    private static DescriptorProto message(MessageElement m, String fullName, boolean proto3,
                                           Map<String, Boolean> known) {
        DescriptorProto.Builder b = DescriptorProto.newBuilder().setName(m.getName());
        String scope = fullName + ".";
        for (FieldElement f : m.getFields()) {
            b.addField(field(f, b, scope, proto3, known, -1));
        }
        for (OneOfElement o : m.getOneOfs()) {
            int index = b.getOneofDeclCount();
            b.addOneofDecl(OneofDescriptorProto.newBuilder().setName(o.getName()));
            for (FieldElement f : o.getFields()) {
                b.addField(field(f, b, scope, proto3, known, index));
            }
        }
        // proto3 "optional": one synthetic oneof each, declared after the real ones.
        for (int i = 0; i < b.getFieldCount(); i++) {
            FieldDescriptorProto f = b.getField(i);
            if (f.getProto3Optional()) {
                int index = b.getOneofDeclCount();
                b.addOneofDecl(OneofDescriptorProto.newBuilder().setName("_" + f.getName()));
                b.setField(i, f.toBuilder().setOneofIndex(index));
            }
        }
        for (TypeElement t : m.getNestedTypes()) {
            if (t instanceof MessageElement nested) {
                b.addNestedType(message(nested, scope + nested.getName(), proto3, known));
            } else if (t instanceof EnumElement e) {
                b.addEnumType(enumeration(e));
            }
        }
        return b.build();
    }

    private static FieldDescriptorProto field(FieldElement f, DescriptorProto.Builder owner, String scope,
                                              boolean proto3, Map<String, Boolean> known, int oneOf) {
        FieldDescriptorProto.Builder b = FieldDescriptorProto.newBuilder().setName(f.getName()).setNumber(f.getTag())
                .setJsonName(jsonName(f.getName()));
        String type = f.getType();
        if (type.startsWith("map<")) {
            String[] kv = type.substring(4, type.length() - 1).split(",", 2);
            String entry = camel(f.getName()) + "Entry";
            DescriptorProto.Builder e = DescriptorProto.newBuilder().setName(entry)
                    .setOptions(MessageOptions.newBuilder().setMapEntry(true));
            e.addField(typed(FieldDescriptorProto.newBuilder().setName("key").setNumber(1).setJsonName("key")
                    .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL), kv[0].strip(), scope, known));
            e.addField(typed(FieldDescriptorProto.newBuilder().setName("value").setNumber(2).setJsonName("value")
                    .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL), kv[1].strip(), scope, known));
            owner.addNestedType(e);
            return b.setLabel(FieldDescriptorProto.Label.LABEL_REPEATED)
                    .setType(FieldDescriptorProto.Type.TYPE_MESSAGE).setTypeName(scope + entry).build();
        }
        Field.Label label = f.getLabel();
        b.setLabel(label == Field.Label.REPEATED ? FieldDescriptorProto.Label.LABEL_REPEATED
                : label == Field.Label.REQUIRED ? FieldDescriptorProto.Label.LABEL_REQUIRED
                : FieldDescriptorProto.Label.LABEL_OPTIONAL);
        if (proto3 && label == Field.Label.OPTIONAL && oneOf < 0) {
            b.setProto3Optional(true);
        }
        if (oneOf >= 0) {
            b.setOneofIndex(oneOf);
        }
        return typed(b, type, scope, known).build();
    }

    private static FieldDescriptorProto.Builder typed(FieldDescriptorProto.Builder b, String type, String scope,
                                                      Map<String, Boolean> known) {
        FieldDescriptorProto.Type scalar = SCALARS.get(type);
        if (scalar != null) {
            return b.setType(scalar);
        }
        String full = resolve(type, scope, known);
        boolean message = known.getOrDefault(full, true);
        return b.setType(message ? FieldDescriptorProto.Type.TYPE_MESSAGE : FieldDescriptorProto.Type.TYPE_ENUM)
                .setTypeName(full);
    }

    /** Protobuf's scoping: the innermost enclosing scope that defines the name wins. */
    private static String resolve(String type, String scope, Map<String, Boolean> known) {
        if (type.startsWith(".")) {
            return type;
        }
        String s = scope;
        while (true) {
            String candidate = s + type;
            if (known.containsKey(candidate)) {
                return candidate;
            }
            if (s.equals(".")) {
                return "." + type;
            }
            int cut = s.lastIndexOf('.', s.length() - 2);
            s = cut < 0 ? "." : s.substring(0, cut + 1);
        }
    }

    private static EnumDescriptorProto enumeration(EnumElement e) {
        EnumDescriptorProto.Builder b = EnumDescriptorProto.newBuilder().setName(e.getName());
        for (EnumConstantElement c : e.getConstants()) {
            b.addValue(EnumValueDescriptorProto.newBuilder().setName(c.getName()).setNumber(c.getTag()));
        }
        return b.build();
    }

    private static String camel(String name) {
        return camel(name, true);
    }

    private static String camel(String name, boolean upperFirst) {
        StringBuilder sb = new StringBuilder();
        boolean upper = upperFirst;
        for (char c : name.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                sb.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return sb.toString();
    }

    /** protoc's json_name: underscores dropped, the letter after each one upper-cased. */
    private static String jsonName(String name) {
        return camel(name, false);
    }
}
