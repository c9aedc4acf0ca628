package io.quire.node.schema;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Confluent's clients send a Protobuf schema in its "serialized" form, a base64
 * {@code FileDescriptorProto}: this turns one into {@code .proto} text on the way in, so a schema
 * registered either way is one schema with one id. The other direction is {@link ProtoToDescriptor}.
 */
final class DescriptorToProto {

    private static final Pattern BASE64 = Pattern.compile("^[A-Za-z0-9+/=\\s]+$");

    private DescriptorToProto() {
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

    /** The {@code .proto} text of a descriptor. */
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
            sb.append(f.getName()).append(" = ").append(f.getNumber()).append(options(f)).append(";\n");
        }
        for (int i = 0; i < oneOfs.size(); i++) {
            if (oneOfs.get(i).isEmpty()) {
                continue; // the synthetic oneof of a proto3 optional field
            }
            sb.append(in).append("oneof ").append(m.getOneofDecl(i).getName()).append(" {\n");
            for (FieldDescriptorProto f : oneOfs.get(i)) {
                sb.append(in).append("  ").append(typeName(f)).append(' ').append(f.getName()).append(" = ")
                        .append(f.getNumber()).append(options(f)).append(";\n");
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

    /** A field's Confluent metadata option, the one option clients read, as text ({@code ""} when none). */
    private static String options(FieldDescriptorProto f) {
        String meta = f.hasOptions() ? ConfluentMeta.fieldOptionText(f.getOptions().getUnknownFields()) : null;
        return meta == null ? "" : " [" + meta + "]";
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
}
