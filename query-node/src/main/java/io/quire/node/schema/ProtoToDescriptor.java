package io.quire.node.schema;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.UnknownFieldSet;
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
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A stored {@code .proto} text as the base64 {@code FileDescriptorProto} Confluent's clients read
 * ({@code format=serialized}), with named types resolved to their full names through the schema's
 * references and the well-known types. The other direction is {@link DescriptorToProto}.
 */
public final class ProtoToDescriptor {

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

    private ProtoToDescriptor() {
    }

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
            try (InputStream in = ProtoToDescriptor.class.getClassLoader().getResourceAsStream(p)) {
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
        UnknownFieldSet meta = ConfluentMeta.fieldOptions(f.getOptions());
        if (meta != null) {
            b.setOptions(DescriptorProtos.FieldOptions.newBuilder().setUnknownFields(meta));
        }
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
