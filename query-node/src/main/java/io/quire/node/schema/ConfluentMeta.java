package io.quire.node.schema;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnknownFieldSet;
import com.google.protobuf.WireFormat;
import com.squareup.wire.schema.internal.parser.OptionElement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Confluent's field metadata option, {@code (confluent.field_meta)} of {@code confluent/meta.proto},
 * in both of a Protobuf schema's forms: the text's option value and the descriptor's extension
 * 1088 of {@code FieldOptions}. Serializers read the tags, params and rules of a field from it, so
 * it must survive the trip between the text Quire stores and the descriptor clients read.
 */
final class ConfluentMeta {

    /** The extension number of every {@code confluent.*_meta} option. */
    static final int EXTENSION = 1088;
    static final String FIELD_OPTION = "confluent.field_meta";

    private ConfluentMeta() {
    }

    /** The option of a field as the descriptor's unknown field 1088, or null when the field has none. */
    static UnknownFieldSet fieldOptions(List<OptionElement> options) {
        for (OptionElement o : options) {
            String name = o.getName().startsWith(".") ? o.getName().substring(1) : o.getName();
            if (name.equals(FIELD_OPTION) && plain(o.getValue()) instanceof Map<?, ?> value) {
                return UnknownFieldSet.newBuilder().addField(EXTENSION,
                        UnknownFieldSet.Field.newBuilder().addLengthDelimited(encode(value)).build()).build();
            }
        }
        return null;
    }

    /** Wire's parsed option value as strings, lists and maps. */
    static Object plain(Object v) {
        if (v instanceof OptionElement.OptionPrimitive p) {
            return String.valueOf(p.getValue());
        }
        if (v instanceof OptionElement o) {
            return Map.of(o.getName(), plain(o.getValue()));
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(plain(x)));
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(String.valueOf(k), plain(x)));
            return out;
        }
        return String.valueOf(v);
    }

    /** {@code confluent.Meta}: doc = 1, params = 2 (map entries), tags = 3, rules = 4. */
    static ByteString encode(Map<?, ?> meta) {
        try {
            ByteString.Output bytes = ByteString.newOutput();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            if (meta.get("doc") instanceof String doc) {
                out.writeString(1, doc);
            }
            for (Object p : list(meta.get("params"))) {
                if (p instanceof Map<?, ?> entry) {
                    out.writeBytes(2, message(Map.of(1, str(entry.get("key")), 2, str(entry.get("value")))));
                }
            }
            for (Object t : list(meta.get("tags"))) {
                out.writeString(3, str(t));
            }
            for (Object r : list(meta.get("rules"))) {
                if (r instanceof Map<?, ?> rule) {
                    out.writeBytes(4, message(Map.of(1, str(rule.get("name")), 2, str(rule.get("doc")),
                            3, str(rule.get("expr")), 4, str(rule.get("sql")))));
                }
            }
            out.flush();
            return bytes.toByteString();
        } catch (IOException e) {
            throw new IllegalStateException(e); // writing to memory
        }
    }

    /**
     * The option text of a descriptor field's extension 1088 ({@code [(confluent.field_meta) = …]}
     * without the brackets), or null when it has none or it does not decode.
     */
    static String fieldOptionText(UnknownFieldSet unknown) {
        if (!unknown.hasField(EXTENSION) || unknown.getField(EXTENSION).getLengthDelimitedList().isEmpty()) {
            return null;
        }
        try {
            CodedInputStream in = unknown.getField(EXTENSION).getLengthDelimitedList().get(0).newCodedInput();
            String doc = null;
            List<String> params = new ArrayList<>();
            List<String> tags = new ArrayList<>();
            List<String> rules = new ArrayList<>();
            String[] ruleFields = {null, "name", "doc", "expr", "sql"};
            int tag;
            while ((tag = in.readTag()) != 0) {
                switch (WireFormat.getTagFieldNumber(tag)) {
                    case 1 -> doc = in.readString();
                    case 2 -> {
                        Map<Integer, String> e = strings(in.readBytes());
                        params.add("{ key: " + quote(e.getOrDefault(1, "")) + ", value: "
                                + quote(e.getOrDefault(2, "")) + " }");
                    }
                    case 3 -> tags.add(quote(in.readString()));
                    case 4 -> {
                        List<String> fields = new ArrayList<>();
                        strings(in.readBytes()).forEach((k, v) -> {
                            if (k >= 1 && k <= 4) {
                                fields.add(ruleFields[k] + ": " + quote(v));
                            }
                        });
                        rules.add("{ " + String.join(", ", fields) + " }");
                    }
                    default -> in.skipField(tag);
                }
            }
            List<String> parts = new ArrayList<>();
            if (doc != null) {
                parts.add("doc: " + quote(doc));
            }
            if (!params.isEmpty()) {
                parts.add("params: [" + String.join(", ", params) + "]");
            }
            if (!tags.isEmpty()) {
                parts.add("tags: [" + String.join(", ", tags) + "]");
            }
            if (!rules.isEmpty()) {
                parts.add("rules: [" + String.join(", ", rules) + "]");
            }
            return "(" + FIELD_OPTION + ") = { " + String.join(", ", parts) + " }";
        } catch (IOException e) {
            return null;
        }
    }

    private static Map<Integer, String> strings(ByteString message) throws IOException {
        CodedInputStream in = message.newCodedInput();
        Map<Integer, String> out = new LinkedHashMap<>();
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                out.put(WireFormat.getTagFieldNumber(tag), in.readString());
            } else {
                in.skipField(tag);
            }
        }
        return out;
    }

    private static ByteString message(Map<Integer, String> fields) throws IOException {
        ByteString.Output bytes = ByteString.newOutput();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        for (int n = 1; n <= 4; n++) {
            String v = fields.get(n);
            if (v != null && !v.isEmpty()) {
                out.writeString(n, v);
            }
        }
        out.flush();
        return bytes.toByteString();
    }

    private static List<?> list(Object v) {
        if (v == null) {
            return List.of();
        }
        return v instanceof List<?> l ? l : List.of(v);
    }

    private static String str(Object v) {
        return v == null ? "" : String.valueOf(v);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
