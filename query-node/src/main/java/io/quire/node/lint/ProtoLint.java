package io.quire.node.lint;

import com.squareup.wire.schema.Field;
import com.squareup.wire.schema.internal.parser.EnumConstantElement;
import com.squareup.wire.schema.internal.parser.EnumElement;
import com.squareup.wire.schema.internal.parser.FieldElement;
import com.squareup.wire.schema.internal.parser.MessageElement;
import com.squareup.wire.schema.internal.parser.OneOfElement;
import com.squareup.wire.schema.internal.parser.OptionElement;
import com.squareup.wire.schema.internal.parser.ProtoFileElement;
import com.squareup.wire.schema.internal.parser.RpcElement;
import com.squareup.wire.schema.internal.parser.ServiceElement;
import com.squareup.wire.schema.internal.parser.TypeElement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * buf's rules that concern one file, with buf's names and meaning, over the file as Wire parsed it
 * (comments included). The rules on a module's layout (directories, file names, import cycles)
 * have no file layout to read in a registry and are not run.
 */
final class ProtoLint {

    /** buf's version suffixes: v1, v1beta1, v1alpha1, v1test, v1p1beta1… */
    private static final Pattern VERSION = Pattern.compile("v\\d+((p\\d+)?(alpha|beta)\\d*|test\\w*)?");

    private ProtoLint() {
    }

    static void check(ProtoFileElement file, Lint.Found found) {
        String pkg = file.getPackageName();
        if (pkg == null || pkg.isEmpty()) {
            found.add(LintRule.PACKAGE_DEFINED, "file", "the file declares no package");
        } else {
            for (String part : pkg.split("\\.")) {
                if (!Lint.matches(Lint.LOWER_SNAKE, part)) {
                    found.add(LintRule.PACKAGE_LOWER_SNAKE_CASE, "package " + pkg, "package " + pkg
                            + " is not lower_snake_case.dot.separated");
                    break;
                }
            }
            String last = pkg.substring(pkg.lastIndexOf('.') + 1);
            if (!VERSION.matcher(last).matches()) {
                found.add(LintRule.PACKAGE_VERSION_SUFFIX, "package " + pkg, "package " + pkg
                        + " does not end with a version such as v1 or v1beta1");
            }
        }
        if (file.getSyntax() == null) {
            found.add(LintRule.SYNTAX_SPECIFIED, "file", "the file does not declare its syntax");
        }
        for (String imp : file.getPublicImports()) {
            found.add(LintRule.IMPORT_NO_PUBLIC, "import " + imp, "import \"" + imp + "\" is public");
        }
        for (TypeElement t : file.getTypes()) {
            type(t, "", found);
        }
        Map<String, Integer> uses = new HashMap<>();
        for (ServiceElement s : file.getServices()) {
            for (RpcElement r : s.getRpcs()) {
                uses.merge(r.getRequestType(), 1, Integer::sum);
                uses.merge(r.getResponseType(), 1, Integer::sum);
            }
        }
        for (ServiceElement s : file.getServices()) {
            service(s, uses, found);
        }
    }

    private static void type(TypeElement t, String outer, Lint.Found found) {
        String here = outer.isEmpty() ? t.getName() : outer + "." + t.getName();
        if (t instanceof MessageElement m) {
            message(m, here, found);
        } else if (t instanceof EnumElement e) {
            enumeration(e, here, found);
        }
        for (TypeElement nested : t.getNestedTypes()) {
            type(nested, here, found);
        }
    }

    private static void message(MessageElement m, String here, Lint.Found found) {
        if (!Lint.matches(Lint.PASCAL, m.getName())) {
            found.add(LintRule.MESSAGE_PASCAL_CASE, here, "message " + m.getName() + " is not PascalCase");
        }
        if (Lint.blank(m.getDocumentation())) {
            found.add(LintRule.COMMENT_MESSAGE, here, "message " + m.getName() + " has no comment");
        }
        for (FieldElement f : m.getFields()) {
            field(f, m.getName(), here, found);
        }
        for (OneOfElement o : m.getOneOfs()) {
            String at = here + "." + o.getName();
            if (!Lint.matches(Lint.LOWER_SNAKE, o.getName())) {
                found.add(LintRule.ONEOF_LOWER_SNAKE_CASE, at, "oneof " + o.getName() + " is not lower_snake_case");
            }
            if (Lint.blank(o.getDocumentation())) {
                found.add(LintRule.COMMENT_ONEOF, at, "oneof " + o.getName() + " has no comment");
            }
            for (FieldElement f : o.getFields()) {
                field(f, m.getName(), here, found);
            }
        }
    }

    private static void field(FieldElement f, String message, String owner, Lint.Found found) {
        String here = owner + "." + f.getName();
        if (!Lint.matches(Lint.LOWER_SNAKE, f.getName())) {
            found.add(LintRule.FIELD_LOWER_SNAKE_CASE, here, "field " + f.getName() + " is not lower_snake_case");
        }
        if (f.getLabel() == Field.Label.REQUIRED) {
            found.add(LintRule.FIELD_NOT_REQUIRED, here, "field " + f.getName() + " is required");
        }
        if (Lint.blank(f.getDocumentation())) {
            found.add(LintRule.COMMENT_FIELD, here, "field " + f.getName() + " has no comment");
        }
        found.pii(message, f.getName(), here, tagged(f.getOptions(), found.settings.piiTag()));
    }

    /** Whether the field's {@code (confluent.field_meta)} option names the tag. */
    private static boolean tagged(List<OptionElement> options, String tag) {
        for (OptionElement o : options) {
            if (o.getName().contains("field_meta") && mentions(o.getValue(), tag)) {
                return true;
            }
        }
        return false;
    }

    private static boolean mentions(Object value, String tag) {
        if (value instanceof OptionElement o) {
            return mentions(o.getValue(), tag);
        }
        if (value instanceof Map<?, ?> map) {
            return map.values().stream().anyMatch(v -> mentions(v, tag));
        }
        if (value instanceof List<?> list) {
            return list.stream().anyMatch(v -> mentions(v, tag));
        }
        return value != null && value.toString().equals(tag);
    }

    private static void enumeration(EnumElement e, String here, Lint.Found found) {
        if (!Lint.matches(Lint.PASCAL, e.getName())) {
            found.add(LintRule.ENUM_PASCAL_CASE, here, "enum " + e.getName() + " is not PascalCase");
        }
        if (Lint.blank(e.getDocumentation())) {
            found.add(LintRule.COMMENT_ENUM, here, "enum " + e.getName() + " has no comment");
        }
        for (OptionElement o : e.getOptions()) {
            if (o.getName().equals("allow_alias") && "true".equals(String.valueOf(o.getValue()))) {
                found.add(LintRule.ENUM_NO_ALLOW_ALIAS, here, "enum " + e.getName() + " sets allow_alias");
            }
        }
        List<EnumConstantElement> values = e.getConstants();
        if (!values.isEmpty() && values.get(0).getTag() != 0) {
            found.add(LintRule.ENUM_FIRST_VALUE_ZERO, here, "the first value of enum " + e.getName() + " is "
                    + values.get(0).getTag() + ", not 0");
        }
        String prefix = Lint.upperSnake(e.getName()) + "_";
        for (EnumConstantElement c : values) {
            String at = here + "." + c.getName();
            if (!Lint.matches(Lint.UPPER_SNAKE, c.getName())) {
                found.add(LintRule.ENUM_VALUE_UPPER_SNAKE_CASE, at, "enum value " + c.getName()
                        + " is not UPPER_SNAKE_CASE");
            }
            if (!c.getName().startsWith(prefix)) {
                found.add(LintRule.ENUM_VALUE_PREFIX, at, "enum value " + c.getName() + " does not start with "
                        + prefix);
            }
            if (c.getTag() == 0 && !c.getName().endsWith(found.settings.zeroValueSuffix())) {
                found.add(LintRule.ENUM_ZERO_VALUE_SUFFIX, at, "enum zero value " + c.getName() + " does not end with "
                        + found.settings.zeroValueSuffix());
            }
            if (Lint.blank(c.getDocumentation())) {
                found.add(LintRule.COMMENT_ENUM_VALUE, at, "enum value " + c.getName() + " has no comment");
            }
        }
    }

    private static void service(ServiceElement s, Map<String, Integer> uses, Lint.Found found) {
        String name = s.getName();
        if (!Lint.matches(Lint.PASCAL, name)) {
            found.add(LintRule.SERVICE_PASCAL_CASE, name, "service " + name + " is not PascalCase");
        }
        if (!name.endsWith("Service")) {
            found.add(LintRule.SERVICE_SUFFIX, name, "service " + name + " does not end with Service");
        }
        if (Lint.blank(s.getDocumentation())) {
            found.add(LintRule.COMMENT_SERVICE, name, "service " + name + " has no comment");
        }
        String bare = name.endsWith("Service") ? name.substring(0, name.length() - "Service".length()) : name;
        for (RpcElement r : s.getRpcs()) {
            String at = name + "." + r.getName();
            if (!Lint.matches(Lint.PASCAL, r.getName())) {
                found.add(LintRule.RPC_PASCAL_CASE, at, "rpc " + r.getName() + " is not PascalCase");
            }
            if (Lint.blank(r.getDocumentation())) {
                found.add(LintRule.COMMENT_RPC, at, "rpc " + r.getName() + " has no comment");
            }
            String req = simple(r.getRequestType());
            String res = simple(r.getResponseType());
            if (!req.equals(r.getName() + "Request") && !req.equals(bare + r.getName() + "Request")) {
                found.add(LintRule.RPC_REQUEST_STANDARD_NAME, at, "rpc " + r.getName() + " takes " + req + ", not "
                        + r.getName() + "Request or " + bare + r.getName() + "Request");
            }
            if (!res.equals(r.getName() + "Response") && !res.equals(bare + r.getName() + "Response")) {
                found.add(LintRule.RPC_RESPONSE_STANDARD_NAME, at, "rpc " + r.getName() + " returns " + res + ", not "
                        + r.getName() + "Response or " + bare + r.getName() + "Response");
            }
            if (r.getRequestType().equals(r.getResponseType()) || uses.getOrDefault(r.getRequestType(), 0) > 1
                    || uses.getOrDefault(r.getResponseType(), 0) > 1) {
                found.add(LintRule.RPC_REQUEST_RESPONSE_UNIQUE, at, "rpc " + r.getName()
                        + " shares its request or response type with another rpc or with itself");
            }
        }
    }

    private static String simple(String type) {
        return type.substring(type.lastIndexOf('.') + 1);
    }
}
