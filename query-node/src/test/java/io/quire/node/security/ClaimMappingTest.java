package io.quire.node.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClaimMappingTest {

    private final ClaimMapping keycloak = new ClaimMapping("realm_access.roles,resource_access.quire.roles,groups",
            "team-payments=writer:payments-,billing-;schema-readers=reader;platform-admins=admin", "subjects",
            "preferred_username");

    @Test
    void keycloakRealmRolesClientRolesAndGroups() {
        Caller p = keycloak.principal(Map.of("sub", "1f2e", "preferred_username", "alice",
                "realm_access", Map.of("roles", List.of("offline_access", "uma_authorization")),
                "groups", List.of("team-payments"))).orElseThrow();
        assertEquals("alice", p.name());
        assertEquals(Role.WRITER, p.role());
        assertEquals(List.of("payments-", "billing-"), p.subjectPrefixes());

        Caller svc = keycloak.principal(Map.of("sub", "9", "preferred_username", "service-account-ci",
                "resource_access", Map.of("quire", Map.of("roles", List.of("writer"))))).orElseThrow();
        assertEquals(Role.WRITER, svc.role());
        assertEquals(List.of(), svc.subjectPrefixes(), "a Quire role by its own name grants it everywhere");
    }

    @Test
    void theHighestGrantWinsAndAnUnrestrictedGrantAtThatRoleLiftsPrefixes() {
        Caller both = keycloak.principal(Map.of("sub", "x", "groups", List.of("schema-readers", "team-payments")))
                .orElseThrow();
        assertEquals(Role.WRITER, both.role());
        assertEquals(List.of("payments-", "billing-"), both.subjectPrefixes());
        Caller admin = keycloak.principal(Map.of("sub", "x", "groups", List.of("team-payments", "platform-admins")))
                .orElseThrow();
        assertEquals(Role.ADMIN, admin.role());
        assertEquals(List.of(), admin.subjectPrefixes());
        ClaimMapping twoWriters = new ClaimMapping("groups", "a=writer:a-;w=writer", "subjects", "sub");
        assertEquals(List.of(), twoWriters.principal(Map.of("sub", "x", "groups", List.of("a", "w"))).orElseThrow()
                .subjectPrefixes());
    }

    @Test
    void aScopeStringIsSplitOnSpacesAndTheSubjectFallsBackToSub() {
        ClaimMapping okta = new ClaimMapping("scp,scope", "quire.write=writer;quire.read=reader", "subjects", "email");
        Caller p = okta.principal(Map.of("sub", "00u1", "scope", "openid quire.read profile")).orElseThrow();
        assertEquals(Role.READER, p.role());
        assertEquals("00u1", p.name(), "no email claim: the subject names the caller");
    }

    @Test
    void aTokensPrefixesNarrowTheGrantedOnes() {
        Caller p = keycloak.principal(Map.of("sub", "x", "groups", List.of("team-payments"),
                "subjects", List.of("payments-eu-", "orders-"))).orElseThrow();
        assertEquals(List.of("payments-eu-"), p.subjectPrefixes());
        assertTrue(keycloak.principal(Map.of("sub", "x", "groups", List.of("team-payments"),
                "subjects", List.of("orders-"))).isEmpty(), "nothing left: no role");
    }

    @Test
    void noRoleNoPrincipalAndABadMappingIsRefused() {
        assertTrue(keycloak.principal(Map.of("sub", "x", "groups", List.of("marketing"))).isEmpty());
        assertTrue(keycloak.principal(Map.of("sub", "x")).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> ClaimMapping.parseRoleMapping("team=owner"));
        assertThrows(IllegalArgumentException.class, () -> ClaimMapping.parseRoleMapping("just-a-name"));
    }
}
