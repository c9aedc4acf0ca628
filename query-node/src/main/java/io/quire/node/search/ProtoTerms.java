package io.quire.node.search;

import com.squareup.wire.schema.internal.parser.EnumConstantElement;
import com.squareup.wire.schema.internal.parser.EnumElement;
import com.squareup.wire.schema.internal.parser.FieldElement;
import com.squareup.wire.schema.internal.parser.MessageElement;
import com.squareup.wire.schema.internal.parser.OneOfElement;
import com.squareup.wire.schema.internal.parser.OptionElement;
import com.squareup.wire.schema.internal.parser.ProtoFileElement;
import com.squareup.wire.schema.internal.parser.TypeElement;
import io.quire.journal.model.SearchTerm.Kind;
import java.util.List;
import java.util.Map;

/** A Protobuf file's terms, from Wire's parse of it: package, messages, enums, fields, comments, {@code confluent} tags. */
final class ProtoTerms {

    private ProtoTerms() {
    }

    static void file(ProtoFileElement file, SchemaTerms out) {
        String pkg = file.getPackageName() == null ? "" : file.getPackageName();
        if (!pkg.isEmpty()) {
            out.add(Kind.NAMESPACE, pkg, pkg);
        }
        for (TypeElement t : file.getTypes()) {
            type(t, pkg, pkg, out);
        }
    }

    private static void type(TypeElement t, String pkg, String outer, SchemaTerms out) {
        String here = outer.isEmpty() ? t.getName() : outer + "." + t.getName();
        out.add(Kind.RECORD, t.getName(), here);
        if (!pkg.isEmpty()) {
            out.add(Kind.NAMESPACE, pkg, here);
        }
        out.doc(t.getDocumentation(), here);
        tags(t.getOptions(), here, out);
        if (t instanceof MessageElement m) {
            fields(m.getFields(), here, out);
            for (OneOfElement o : m.getOneOfs()) {
                out.doc(o.getDocumentation(), here + "." + o.getName());
                fields(o.getFields(), here, out);
            }
        } else if (t instanceof EnumElement e) {
            for (EnumConstantElement c : e.getConstants()) {
                out.add(Kind.FIELD, c.getName(), here + "." + c.getName());
                out.doc(c.getDocumentation(), here + "." + c.getName());
            }
        }
        for (TypeElement nested : t.getNestedTypes()) {
            type(nested, pkg, here, out);
        }
    }

    private static void fields(List<FieldElement> fields, String message, SchemaTerms out) {
        for (FieldElement f : fields) {
            String here = message + "." + f.getName();
            out.add(Kind.FIELD, f.getName(), here);
            out.doc(f.getDocumentation(), here);
            tags(f.getOptions(), here, out);
        }
    }

    /** The tags of {@code (confluent.field_meta)} and {@code (confluent.message_meta)} options. */
    private static void tags(List<OptionElement> options, String path, SchemaTerms out) {
        for (OptionElement o : options) {
            if (o.getName().contains("field_meta") || o.getName().contains("message_meta")) {
                tagValues(o.getValue(), false, path, out);
            }
        }
    }

    private static void tagValues(Object value, boolean underTags, String path, SchemaTerms out) {
        if (value instanceof OptionElement o) {
            tagValues(o.getValue(), o.getName().equals("tags"), path, out);
        } else if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                tagValues(e.getValue(), String.valueOf(e.getKey()).equals("tags"), path, out);
            }
        } else if (value instanceof List<?> list) {
            for (Object v : list) {
                tagValues(v, underTags, path, out);
            }
        } else if (underTags && value != null) {
            out.add(Kind.TAG, value.toString(), path);
        }
    }
}
