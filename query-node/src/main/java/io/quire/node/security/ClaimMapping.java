package io.quire.node.security;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How a token's claims become a {@link Caller}, whoever signed it: the role from one or more
 * claim paths ({@code realm_access.roles}, {@code resource_access.quire.roles}, {@code groups},
 * {@code scope}), provider names mapped to Quire roles and subject prefixes, the prefixes claim,
 * and the claim that names the caller.
 *
 * <p>A caller gets the highest role any of its names grants. Its subject prefixes are those of the
 * grants at that role; one grant at that role without prefixes leaves it unrestricted. A token's
 * prefixes claim, when present, narrows it further to those prefixes.
 */
public final class ClaimMapping {

    /** What one provider name grants. */
    record Grant(Role role, List<String> prefixes) {
    }

    private final List<List<String>> rolePaths;
    private final Map<String, Grant> mapping;
    private final String subjectsClaim;
    private final String principalClaim;

    public ClaimMapping(String rolesClaims, String roleMapping, String subjectsClaim, String principalClaim) {
        this.rolePaths = new ArrayList<>();
        for (String path : rolesClaims.split(",")) {
            if (!path.isBlank()) {
                rolePaths.add(List.of(path.strip().split("\\.")));
            }
        }
        this.mapping = parseRoleMapping(roleMapping);
        this.subjectsClaim = subjectsClaim;
        this.principalClaim = principalClaim.isBlank() ? "sub" : principalClaim;
    }

    /**
     * {@code name=role[:prefix,prefix];...}; throws {@link IllegalArgumentException} on a malformed
     * entry or an unknown role, so that a node refuses to start with it.
     */
    public static Map<String, Grant> parseRoleMapping(String spec) {
        Map<String, Grant> out = new LinkedHashMap<>();
        for (String entry : spec.split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--auth-role-mapping: '" + entry.strip() + "' is not name=role[:prefixes]");
            }
            String name = entry.substring(0, eq).strip();
            String grant = entry.substring(eq + 1).strip();
            int colon = grant.indexOf(':');
            String roleName = colon < 0 ? grant : grant.substring(0, colon);
            Role role = Role.parse(roleName.strip()).orElseThrow(() -> new IllegalArgumentException(
                    "--auth-role-mapping: '" + roleName + "' is not a role (reader, writer, admin)"));
            List<String> prefixes = new ArrayList<>();
            if (colon >= 0) {
                for (String p : grant.substring(colon + 1).split(",")) {
                    if (!p.isBlank()) {
                        prefixes.add(p.strip());
                    }
                }
            }
            out.put(name, new Grant(role, List.copyOf(prefixes)));
        }
        return out;
    }

    /** The caller these claims describe, or empty when they grant no Quire role. */
    public Optional<Caller> principal(Map<String, ?> claims) {
        List<Grant> grants = new ArrayList<>();
        for (List<String> path : rolePaths) {
            for (String name : strings(at(claims, path))) {
                Grant g = mapping.get(name);
                if (g != null) {
                    grants.add(g);
                } else {
                    Role.parse(name).ifPresent(r -> grants.add(new Grant(r, List.of())));
                }
            }
        }
        Role best = null;
        for (Grant g : grants) {
            if (best == null || g.role().includes(best)) {
                best = g.role();
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        Set<String> prefixes = new LinkedHashSet<>();
        boolean unrestricted = false;
        for (Grant g : grants) {
            if (g.role() == best) {
                unrestricted |= g.prefixes().isEmpty();
                prefixes.addAll(g.prefixes());
            }
        }
        List<String> fromToken = strings(claims.get(subjectsClaim));
        List<String> limited;
        if (fromToken.isEmpty()) {
            limited = unrestricted ? List.of() : List.copyOf(prefixes);
        } else if (unrestricted) {
            limited = fromToken;
        } else {
            // both limit the caller: keep the token's prefixes that fall under a granted one
            limited = fromToken.stream().filter(t -> prefixes.stream().anyMatch(t::startsWith)).toList();
            if (limited.isEmpty()) {
                return Optional.empty();
            }
        }
        Object name = claims.get(principalClaim);
        if (!(name instanceof String) || ((String) name).isBlank()) {
            name = claims.get("sub");
        }
        return Optional.of(new Caller(name instanceof String s && !s.isBlank() ? s : "token", best, limited));
    }

    private static Object at(Map<String, ?> claims, List<String> path) {
        Object node = claims;
        for (String step : path) {
            Map<?, ?> map = asMap(node);
            if (map == null) {
                return null;
            }
            node = map.get(step);
        }
        return node;
    }

    private static Map<?, ?> asMap(Object o) {
        if (o instanceof Map<?, ?> m) {
            return m;
        }
        if (o instanceof JsonObject j) {
            return j.getMap();
        }
        return null;
    }

    /** A claim's values: the items of an array, or a string split on white space (an OAuth {@code scope}). */
    private static List<String> strings(Object claim) {
        List<String> out = new ArrayList<>();
        if (claim instanceof Iterable<?> items) {
            for (Object o : items) {
                if (o != null) {
                    out.add(String.valueOf(o));
                }
            }
        } else if (claim instanceof String s) {
            for (String part : s.strip().split("\\s+")) {
                if (!part.isEmpty()) {
                    out.add(part);
                }
            }
        } else if (claim != null) {
            out.add(String.valueOf(claim));
        }
        return out;
    }
}
