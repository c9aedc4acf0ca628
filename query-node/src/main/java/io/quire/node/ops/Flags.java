package io.quire.node.ops;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Splits a command's own flags from the node settings it passes on to {@code QuireConfig}. */
final class Flags {

    final Map<String, String> own = new LinkedHashMap<>();
    final List<String> rest = new ArrayList<>();
    final boolean help;

    Flags(String[] args, Set<String> ownNames) {
        boolean h = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                h = true;
            } else if (a.startsWith("--") && ownNames.contains(a.substring(2)) && i + 1 < args.length) {
                own.put(a.substring(2), args[++i]);
            } else {
                rest.add(a);
            }
        }
        help = h;
    }

    /** The {@code Authorization} header for {@code --user name:password}; null without the flag. */
    String basicAuthorization() {
        String user = own.get("user");
        return user == null ? null : "Basic " + Base64.getEncoder().encodeToString(
                user.getBytes(StandardCharsets.UTF_8));
    }

    String required(String name) {
        String v = own.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is required (see --help)");
        }
        return v;
    }
}
