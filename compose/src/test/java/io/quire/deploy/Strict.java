package io.quire.deploy;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Fabric8's model types keep fields they do not know in {@code additionalProperties} instead of
 * failing: this walks a read object and fails on any such field, with its path.
 */
final class Strict {

    private Strict() {
    }

    static void noUnknownFields(Object root, String where) {
        walk(root, where, new IdentityHashMap<>());
    }

    private static void walk(Object o, String path, IdentityHashMap<Object, Boolean> seen) {
        if (o == null || seen.put(o, Boolean.TRUE) != null) {
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object item : c) {
                walk(item, path + "[" + i++ + "]", seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                walk(e.getValue(), path + "." + e.getKey(), seen);
            }
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method getter : o.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get") || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value;
            try {
                value = getter.invoke(o);
            } catch (ReflectiveOperationException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    throw new AssertionError(path + " has fields the Kubernetes API does not know: " + extra.keySet());
                }
                continue;
            }
            String field = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
            walk(value, path + "." + field, seen);
        }
    }
}
