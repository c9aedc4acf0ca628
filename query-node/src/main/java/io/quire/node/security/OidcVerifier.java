package io.quire.node.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.text.ParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bearer tokens of an OpenID Connect provider, checked with Nimbus JOSE+JWT. The provider's
 * discovery document ({@code ISSUER/.well-known/openid-configuration}) names its key set; the key
 * set is kept in memory for {@code refreshS} and fetched again after. A token whose {@code kid} the
 * kept set lacks makes one fetch, at most one per {@code minFetchIntervalS} whatever the number of
 * such tokens; while the provider cannot be reached the last good set stays in use. RS256, PS256,
 * ES256 and EdDSA signatures are accepted, never {@code none} or HMAC; {@code iss} must be the
 * issuer, {@code exp} is required, {@code aud} (when configured) and {@code nbf} are checked with
 * the configured clock skew.
 */
public final class OidcVerifier {

    private static final Logger LOG = LoggerFactory.getLogger(OidcVerifier.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.PS256, JWSAlgorithm.ES256,
            JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519);

    private final String issuer;
    private final String audience;
    private final long refreshMs;
    private final long minFetchIntervalMs;
    private final long clockSkewS;
    private final ResourceRetriever http;
    private final AtomicLong keyFetches = new AtomicLong();
    private final AtomicLong discoveryFetches = new AtomicLong();

    private volatile Discovery discovery;
    private volatile DefaultJWTProcessor<SecurityContext> processor;
    private volatile JWKSource<SecurityContext> jwkSource;
    private volatile DefaultJOSEObjectTypeVerifier<SecurityContext> typeVerifier;
    private volatile DefaultJWTClaimsVerifier<SecurityContext> claimsVerifier;
    private long lastDiscoveryAttempt = Long.MIN_VALUE / 2;

    /** What the provider's discovery document says that Quire uses. */
    public record Discovery(String issuer, String jwksUri, String authorizationEndpoint, String tokenEndpoint,
                            String endSessionEndpoint) {
    }

    public OidcVerifier(String issuer, String audience, long refreshS, long minFetchIntervalS, long clockSkewS) {
        this.issuer = issuer;
        this.audience = audience == null || audience.isBlank() ? null : audience;
        this.refreshMs = refreshS * 1000;
        this.minFetchIntervalMs = minFetchIntervalS * 1000;
        this.clockSkewS = clockSkewS;
        this.http = new DefaultResourceRetriever(5_000, 5_000, 1 << 20);
    }

    /** The claims of a valid token; throws {@link InvalidTokenException} for any other. */
    public Map<String, Object> verify(String token) throws InvalidTokenException {
        DefaultJWTProcessor<SecurityContext> p = processor();
        try {
            SignedJWT jwt = SignedJWT.parse(token); // an unsigned token (alg none) is not one: refused here
            JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
            if (JWSAlgorithm.EdDSA.equals(alg) || JWSAlgorithm.Ed25519.equals(alg)) {
                return verifyEdDsa(jwt);
            }
            return p.process(jwt, null).toJSONObject();
        } catch (ParseException | BadJOSEException | JOSEException e) {
            throw new InvalidTokenException(e.getMessage());
        }
    }

    /**
     * EdDSA outside Nimbus' key selector, which hands verifiers Java keys and has none for an
     * Ed25519 JWK: the same key source (cache, one fetch per interval) and the same claims checks.
     */
    private Map<String, Object> verifyEdDsa(SignedJWT jwt) throws JOSEException,
            BadJOSEException, ParseException {
        typeVerifier.verify(jwt.getHeader().getType(), null);
        List<JWK> keys = jwkSource.get(new JWKSelector(
                JWKMatcher.forJWSHeader(jwt.getHeader())), null);
        for (JWK k : keys) {
            if (k instanceof OctetKeyPair okp
                    && jwt.verify(new Ed25519Verifier(okp.toPublicJWK()))) {
                claimsVerifier.verify(jwt.getJWTClaimsSet(), null);
                return jwt.getJWTClaimsSet().toJSONObject();
            }
        }
        throw new BadJOSEException("Signed JWT rejected: no Ed25519 key verifies it");
    }

    /** The discovery document, fetched now if it has not been (at most once per fetch interval). */
    public Discovery discovery() throws InvalidTokenException {
        processor();
        return discovery;
    }

    public String issuer() {
        return issuer;
    }

    /** HTTP fetches of the provider's key set since start (every attempt counts). */
    public long keyFetches() {
        return keyFetches.get();
    }

    public long discoveryFetches() {
        return discoveryFetches.get();
    }

    private DefaultJWTProcessor<SecurityContext> processor() throws InvalidTokenException {
        DefaultJWTProcessor<SecurityContext> p = processor;
        if (p != null) {
            return p;
        }
        synchronized (this) {
            if (processor != null) {
                return processor;
            }
            long now = System.currentTimeMillis();
            if (now - lastDiscoveryAttempt < minFetchIntervalMs) {
                throw new InvalidTokenException("the identity provider's discovery document is not available yet");
            }
            lastDiscoveryAttempt = now;
            try {
                discovery = discover();
                processor = build(discovery);
                LOG.info("OpenID Connect provider {}: keys at {}", issuer, discovery.jwksUri());
                return processor;
            } catch (IOException | RuntimeException e) {
                LOG.warn("OpenID Connect discovery at {} failed: {}", issuer, e.toString());
                throw new InvalidTokenException("the identity provider cannot be reached");
            }
        }
    }

    private Discovery discover() throws IOException {
        discoveryFetches.incrementAndGet();
        Resource r = http.retrieveResource(URI.create(issuer + "/.well-known/openid-configuration").toURL());
        JsonNode doc = JSON.readTree(r.getContent());
        if (!issuer.equals(doc.path("issuer").asText())) {
            throw new IOException("the discovery document names the issuer '" + doc.path("issuer").asText()
                    + "', not " + issuer);
        }
        String jwks = doc.path("jwks_uri").asText("");
        if (jwks.isEmpty()) {
            throw new IOException("the discovery document has no jwks_uri");
        }
        return new Discovery(issuer, jwks, doc.path("authorization_endpoint").asText(""),
                doc.path("token_endpoint").asText(""), doc.path("end_session_endpoint").asText(""));
    }

    private DefaultJWTProcessor<SecurityContext> build(Discovery d) throws IOException {
        // At most one fetch per interval, whatever asks: Nimbus' own rate limiter allows two per
        // interval. A refused fetch counts as the provider being unavailable: the outage-tolerant
        // cache keeps answering with the last good set, which lacks a forged kid.
        long[] last = {Long.MIN_VALUE / 2};
        ResourceRetriever counting = url -> {
            synchronized (last) {
                long now = System.currentTimeMillis();
                if (now - last[0] < minFetchIntervalMs) {
                    throw new IOException("key set fetched less than " + minFetchIntervalMs + " ms ago");
                }
                last[0] = now;
            }
            keyFetches.incrementAndGet();
            return http.retrieveResource(url);
        };
        URL jwks = URI.create(d.jwksUri()).toURL();
        JWKSource<SecurityContext> keys = JWKSourceBuilder.<SecurityContext>create(jwks, counting)
                .cache(refreshMs, 5_000)
                .refreshAheadCache(false)
                .rateLimited(false)
                .retrying(false)
                .outageTolerantForever()
                .build();
        DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
        typeVerifier = new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"),
                new JOSEObjectType("application/at+jwt"), null);
        p.setJWSTypeVerifier(typeVerifier);
        p.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
        jwkSource = keys;
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
                audience == null ? null : Set.of(audience),
                new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of("exp", "iss"), null);
        claims.setMaxClockSkew((int) clockSkewS);
        p.setJWTClaimsSetVerifier(claims);
        claimsVerifier = claims;
        return p;
    }

    /** A token that is not valid here; the message says why (logged at debug, never sent). */
    public static final class InvalidTokenException extends Exception {
        public InvalidTokenException(String why) {
            super(why);
        }
    }
}
