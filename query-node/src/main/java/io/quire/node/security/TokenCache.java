package io.quire.node.security;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Tokens already checked, each with its caller, until the token expires: a client sends the same
 * token for minutes, and a signature check costs far more than a lookup. Bounded: when full it
 * starts over.
 */
final class TokenCache {

    private record Entry(Caller principal, long expiresAtMs) {
    }

    private final int capacity;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    TokenCache(int capacity) {
        this.capacity = capacity;
    }

    Caller get(String token) {
        Entry e = entries.get(token);
        if (e == null) {
            return null;
        }
        if (System.currentTimeMillis() >= e.expiresAtMs()) {
            entries.remove(token, e);
            return null;
        }
        return e.principal();
    }

    void put(String token, Caller principal, long expiresAtMs) {
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(token, new Entry(principal, expiresAtMs));
    }
}
