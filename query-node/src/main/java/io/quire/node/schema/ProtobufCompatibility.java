package io.quire.node.schema;

import com.squareup.wire.schema.Field;
import com.squareup.wire.schema.internal.parser.FieldElement;
import com.squareup.wire.schema.internal.parser.MessageElement;
import com.squareup.wire.schema.internal.parser.OneOfElement;
import com.squareup.wire.schema.internal.parser.ProtoFileElement;
import com.squareup.wire.schema.internal.parser.ReservedElement;
import com.squareup.wire.schema.internal.parser.TypeElement;
import io.quire.node.schema.ProtobufSupport.Document;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import kotlin.ranges.IntRange;

/**
 * Can a reader's messages decode what a writer's messages encoded? A diff of the two files at the
 * wire level, following Confluent's Protobuf rules: fields are matched by number; adding or
 * removing optional fields, renaming fields, adding messages and changing enums are safe; a
 * removed message, a field whose type changes outside its wire-compatible group (varint: int32,
 * uint32, int64, uint64, bool and enums; zigzag: sint32, sint64; 32-bit: fixed32, sfixed32;
 * 64-bit: fixed64, sfixed64; length-delimited: string, bytes), a changed message type, a changed
 * package, required fields added or removed, and fields moved into or out of a oneof are not.
 * One rule is stricter than Confluent's: a field that takes a number the writer reserved.
 */
final class ProtobufCompatibility {

    private static final Map<String, String> WIRE_GROUP = new HashMap<>();

    static {
        for (String t : List.of("int32", "uint32", "int64", "uint64", "bool")) {
            WIRE_GROUP.put(t, "varint");
        }
        WIRE_GROUP.put("sint32", "zigzag");
        WIRE_GROUP.put("sint64", "zigzag");
        WIRE_GROUP.put("fixed32", "fixed32");
        WIRE_GROUP.put("sfixed32", "fixed32");
        WIRE_GROUP.put("fixed64", "fixed64");
        WIRE_GROUP.put("sfixed64", "fixed64");
        WIRE_GROUP.put("string", "length");
        WIRE_GROUP.put("bytes", "length");
        WIRE_GROUP.put("float", "float");
        WIRE_GROUP.put("double", "double");
    }

    private final Document writer;
    private final Document reader;
    private final String readerRole;
    private final String writerRole;
    private final List<String> errors = new ArrayList<>();
    private final Set<String> writerEnums = new HashSet<>();
    private final Set<String> readerEnums = new HashSet<>();

    ProtobufCompatibility(Document writer, Document reader, String readerRole, String writerRole) {
        this.writer = writer;
        this.reader = reader;
        this.readerRole = readerRole;
        this.writerRole = writerRole;
    }

    List<String> check() {
        if (!nz(writer.file().getPackageName()).equals(nz(reader.file().getPackageName()))) {
            error("PACKAGE_CHANGED", "#", "the package changed from '" + nz(writer.file().getPackageName()) + "'");
        }
        Map<String, MessageElement> wMessages = messages(writer, writerEnums);
        Map<String, MessageElement> rMessages = messages(reader, readerEnums);
        for (Map.Entry<String, MessageElement> e : wMessages.entrySet()) {
            MessageElement r = rMessages.get(e.getKey());
            if (r == null) {
                error("MESSAGE_REMOVED", e.getKey(), "message " + e.getKey() + " is missing");
            } else {
                compare(e.getValue(), r, e.getKey());
            }
        }
        return errors;
    }

    private void error(String type, String path, String what) {
        errors.add("{errorType:'" + type + "', description:'" + what + " at " + path + " in the " + readerRole
                + " schema (checked against the " + writerRole + " schema)'}");
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /** Messages of the schema's own file by dotted name within the package ("Outer.Inner"). */
    private static Map<String, MessageElement> messages(Document doc, Set<String> enums) {
        Map<String, MessageElement> out = new LinkedHashMap<>();
        collect(doc.file().getTypes(), "", out, enums);
        for (ProtoFileElement dep : doc.references().values()) {
            collect(dep.getTypes(), "", new LinkedHashMap<>(), enums); // only their enums: fields may use them
        }
        return out;
    }

    private static void collect(List<TypeElement> types, String scope, Map<String, MessageElement> out,
                                Set<String> enums) {
        for (TypeElement t : types) {
            String name = scope + t.getName();
            if (t instanceof MessageElement m) {
                out.put(name, m);
            } else if (ProtobufSupport.isEnum(t)) {
                enums.add(t.getName());
            }
            collect(t.getNestedTypes(), name + ".", out, enums);
        }
    }

    private record Slot(FieldElement field, String oneOf) {
    }

    private static Map<Integer, Slot> byNumber(MessageElement m) {
        Map<Integer, Slot> out = new LinkedHashMap<>();
        for (FieldElement f : m.getFields()) {
            out.put(f.getTag(), new Slot(f, null));
        }
        for (OneOfElement o : m.getOneOfs()) {
            for (FieldElement f : o.getFields()) {
                out.put(f.getTag(), new Slot(f, o.getName()));
            }
        }
        return out;
    }

    private void compare(MessageElement w, MessageElement r, String path) {
        Map<Integer, Slot> wFields = byNumber(w);
        Map<Integer, Slot> rFields = byNumber(r);
        Set<String> wOneOfs = new HashSet<>();
        w.getOneOfs().forEach(o -> wOneOfs.add(o.getName()));
        Map<String, Integer> movedIntoNewOneOf = new HashMap<>();
        for (Map.Entry<Integer, Slot> e : wFields.entrySet()) {
            Slot ws = e.getValue();
            Slot rs = rFields.get(e.getKey());
            String at = path + "." + ws.field().getName() + " (" + e.getKey() + ")";
            if (rs == null) {
                if (ProtobufSupport.isRequired(ws.field())) {
                    error("REQUIRED_FIELD_REMOVED", at, "required field " + ws.field().getName() + " was removed");
                } else if (ws.oneOf() != null) {
                    error("ONEOF_FIELD_REMOVED", at, "field " + ws.field().getName() + " was removed from oneof "
                            + ws.oneOf());
                }
                continue;
            }
            compareField(ws.field(), rs.field(), at);
            if (ws.oneOf() == null && rs.oneOf() != null) {
                if (wOneOfs.contains(rs.oneOf())) {
                    error("FIELD_MOVED_TO_EXISTING_ONEOF", at, "field moved into the existing oneof " + rs.oneOf());
                } else {
                    movedIntoNewOneOf.merge(rs.oneOf(), 1, Integer::sum);
                }
            } else if (ws.oneOf() != null && rs.oneOf() == null) {
                error("ONEOF_FIELD_REMOVED", at, "field moved out of oneof " + ws.oneOf());
            }
        }
        movedIntoNewOneOf.forEach((oneOf, n) -> {
            if (n > 1) {
                error("MULTIPLE_FIELDS_MOVED_TO_ONEOF", path, n + " existing fields moved into the new oneof " + oneOf);
            }
        });
        Set<Integer> reserved = reservedNumbers(w);
        for (Map.Entry<Integer, Slot> e : rFields.entrySet()) {
            if (wFields.containsKey(e.getKey())) {
                continue;
            }
            String at = path + "." + e.getValue().field().getName() + " (" + e.getKey() + ")";
            if (ProtobufSupport.isRequired(e.getValue().field())) {
                error("REQUIRED_FIELD_ADDED", at, "required field " + e.getValue().field().getName() + " was added");
            }
            if (reserved.contains(e.getKey())) {
                error("RESERVED_FIELD_REUSED", at, "field number " + e.getKey() + " was reserved");
            }
        }
    }

    private static Set<Integer> reservedNumbers(MessageElement m) {
        Set<Integer> out = new HashSet<>();
        for (ReservedElement r : m.getReserveds()) {
            for (Object v : r.getValues()) {
                if (v instanceof Integer i) {
                    out.add(i);
                } else if (v instanceof IntRange range) {
                    int last = Math.min(range.getLast(), range.getFirst() + 100_000); // "to max" stays bounded
                    for (int i = range.getFirst(); i <= last; i++) {
                        out.add(i);
                    }
                }
            }
        }
        return out;
    }

    private enum Kind { SCALAR, ENUM, MESSAGE, MAP }

    private Kind kind(String type, Set<String> enums) {
        if (type.startsWith("map<")) {
            return Kind.MAP;
        }
        if (WIRE_GROUP.containsKey(type)) {
            return Kind.SCALAR;
        }
        return enums.contains(simpleName(type)) ? Kind.ENUM : Kind.MESSAGE;
    }

    private static String simpleName(String type) {
        int dot = type.lastIndexOf('.');
        return dot < 0 ? type : type.substring(dot + 1);
    }

    private void compareField(FieldElement w, FieldElement r, String at) {
        Kind wk = kind(w.getType(), writerEnums);
        Kind rk = kind(r.getType(), readerEnums);
        boolean varintEnum = (wk == Kind.ENUM && rk == Kind.SCALAR && "varint".equals(WIRE_GROUP.get(r.getType())))
                || (rk == Kind.ENUM && wk == Kind.SCALAR && "varint".equals(WIRE_GROUP.get(w.getType())));
        if (wk != rk && !varintEnum) {
            error("FIELD_KIND_CHANGED", at, "the field changed from " + w.getType() + " to " + r.getType());
            return;
        }
        if (wk == Kind.SCALAR && rk == Kind.SCALAR
                && !WIRE_GROUP.get(w.getType()).equals(WIRE_GROUP.get(r.getType()))) {
            error("FIELD_SCALAR_KIND_CHANGED", at, "the field changed from " + w.getType() + " to " + r.getType());
        } else if ((wk == Kind.MESSAGE || wk == Kind.ENUM) && wk == rk
                && !simpleName(w.getType()).equals(simpleName(r.getType()))) {
            error("FIELD_NAMED_TYPE_CHANGED", at, "the field changed from " + w.getType() + " to " + r.getType());
        } else if (wk == Kind.MAP && !w.getType().replace(" ", "").equals(r.getType().replace(" ", ""))) {
            error("FIELD_KIND_CHANGED", at, "the map changed from " + w.getType() + " to " + r.getType());
        }
        boolean wRepeated = w.getLabel() == Field.Label.REPEATED;
        boolean rRepeated = r.getLabel() == Field.Label.REPEATED;
        if (wRepeated != rRepeated) {
            String group = WIRE_GROUP.get(r.getType());
            boolean lengthDelimited = rk == Kind.MESSAGE || "length".equals(group);
            if (!lengthDelimited) {
                error("FIELD_LABEL_CHANGED", at, "the field changed between repeated and singular");
            }
        }
        if (!ProtobufSupport.isRequired(w) && ProtobufSupport.isRequired(r)) {
            error("REQUIRED_FIELD_ADDED", at, "the field became required");
        }
    }
}
