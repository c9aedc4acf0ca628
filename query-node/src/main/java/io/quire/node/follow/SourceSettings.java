package io.quire.node.follow;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/** The followed cluster's client settings (security, timeouts), from the file the operator names. */
public final class SourceSettings {

    private SourceSettings() {
    }

    /** The settings in a properties file ({@code file} empty: none). */
    public static Map<String, String> load(String file) throws IOException {
        Map<String, String> settings = new HashMap<>();
        if (!file.isEmpty()) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(Path.of(file))) {
                p.load(in);
            }
            p.forEach((k, v) -> settings.put(String.valueOf(k), String.valueOf(v)));
        }
        return settings;
    }
}
