package io.quire.node.security;

import at.favre.lib.crypto.bcrypt.BCrypt;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP Basic credentials: one line per user, {@code name:bcrypt-hash:role[:prefix,prefix]}.
 * Passwords are checked with bcrypt (slow on purpose), on a worker thread; a successful check is
 * remembered for a few minutes under a SHA-256 of the credentials, so a client sending the same
 * header on every request does not pay bcrypt each time.
 */
public final class UsersFile {

    private record User(String name, byte[] hash, Role role, List<String> prefixes) {
    }

    private static final long REMEMBER_MS = 5 * 60_000;
    private static final int REMEMBER_MAX = 10_000;

    private final Map<String, User> users;
    private final Map<String, Long> verified = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > REMEMBER_MAX;
        }
    };

    private final byte[] dummyHash;

    private UsersFile(Map<String, User> users) {
        this.users = users;
        // Unknown names are checked against a hash of the same cost as the real ones, so timing
        // does not reveal which names exist.
        int cost = users.values().stream().findFirst().map(u -> cost(new String(u.hash(), StandardCharsets.UTF_8)))
                .orElse(12);
        this.dummyHash = hash("not-a-password".toCharArray(), cost).getBytes(StandardCharsets.UTF_8);
    }

    private static int cost(String bcryptHash) {
        try {
            return Integer.parseInt(bcryptHash.substring(4, 6));
        } catch (RuntimeException e) {
            return 12;
        }
    }

    public static UsersFile load(Path file) throws IOException {
        Map<String, User> users = new HashMap<>();
        int n = 0;
        for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split(":", 4);
            if (parts.length < 3 || parts[0].isEmpty() || !parts[1].startsWith("$2")) {
                throw new IllegalArgumentException(file + " line " + n + ": expected name:bcrypt-hash:role[:prefixes]");
            }
            int lineNo = n;
            Role role = Role.parse(parts[2]).orElseThrow(
                    () -> new IllegalArgumentException(file + " line " + lineNo + ": unknown role '" + parts[2] + "'"));
            List<String> prefixes = parts.length == 4 && !parts[3].isBlank() && !parts[3].equals("*")
                    ? Arrays.stream(parts[3].split(",")).map(String::strip).filter(p -> !p.isEmpty()).toList()
                    : List.of();
            users.put(parts[0], new User(parts[0], parts[1].getBytes(StandardCharsets.UTF_8), role, prefixes));
        }
        return new UsersFile(users);
    }

    /**
     * The principal for credentials verified within the last few minutes, without bcrypt: one
     * SHA-256 and a map lookup, cheap enough for an event loop. Empty when they must be verified.
     */
    public Optional<Caller> recentlyVerified(String name, String password) {
        User u = users.get(name);
        return u == null ? Optional.empty() : remembered(u, fingerprint(name, password));
    }

    private Optional<Caller> remembered(User u, String key) {
        synchronized (verified) {
            Long at = verified.get(key);
            if (at != null && System.currentTimeMillis() - at < REMEMBER_MS) {
                return Optional.of(new Caller(u.name(), u.role(), u.prefixes()));
            }
        }
        return Optional.empty();
    }

    /** The principal for these credentials, or empty when they are wrong. Blocking: call off the event loop. */
    public Optional<Caller> verify(String name, String password) {
        User u = users.get(name);
        if (u == null) {
            BCrypt.verifyer().verify(password.toCharArray(), dummyHash);
            return Optional.empty();
        }
        String key = fingerprint(name, password);
        Optional<Caller> recent = remembered(u, key);
        if (recent.isPresent()) {
            return recent;
        }
        if (!BCrypt.verifyer().verify(password.toCharArray(), u.hash()).verified) {
            return Optional.empty();
        }
        synchronized (verified) {
            verified.put(key, System.currentTimeMillis());
        }
        return Optional.of(new Caller(u.name(), u.role(), u.prefixes()));
    }

    /** A bcrypt hash for the users file ({@code quire.jar hash-password}). */
    public static String hash(char[] password, int cost) {
        return BCrypt.withDefaults().hashToString(cost, password);
    }

    private static String fingerprint(String name, String password) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(
                    sha.digest((name + '\u0000' + password).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
