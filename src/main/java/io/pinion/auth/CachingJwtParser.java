package io.pinion.auth;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.time.Duration;

import javax.crypto.SecretKey;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import org.eclipse.microprofile.jwt.JsonWebToken;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;

/**
 * Bearer-token verification with a small cache: an RS256 signature check costs about 40% of the CPU of a cheap
 * authenticated request, and clients send the same token for many requests. A token string that verified is
 * accepted again without re-checking its signature until the earlier of its {@code exp} and
 * {@link #REUSE_MS} after the check (which bounds how long a token keeps passing after the verification key is
 * replaced). Only exact token strings are cached, at most {@link #MAX_ENTRIES} (Caffeine's size bound: a token
 * not seen before costs its signature check and nothing more, however many tokens are active); every other parser
 * method goes to the standard parser unchanged.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class CachingJwtParser implements JWTParser {

    static final long REUSE_MS = 60_000;
    static final int MAX_ENTRIES = 10_000;

    private record Verified(JsonWebToken token, long reusableUntil) {
    }

    private final DefaultJWTParser delegate;
    private final Cache<String, Verified> verified = Caffeine.newBuilder().maximumSize(MAX_ENTRIES)
            .expireAfterWrite(Duration.ofMillis(REUSE_MS)).build();

    CachingJwtParser(DefaultJWTParser delegate) {
        this.delegate = delegate;
    }

    @Override
    public JsonWebToken parse(String token) throws ParseException {
        long now = System.currentTimeMillis();
        Verified cached = verified.getIfPresent(token);
        if (cached != null && now < cached.reusableUntil()) {
            return cached.token();
        }
        JsonWebToken parsed = delegate.parse(token);
        long expires = parsed.getExpirationTime() > 0 ? parsed.getExpirationTime() * 1000 : now;
        long until = Math.min(expires, now + REUSE_MS);
        if (until > now) {
            verified.put(token, new Verified(parsed, until));
        }
        return parsed;
    }

    @Override
    public JsonWebToken parse(String token, JWTAuthContextInfo context) throws ParseException {
        return delegate.parse(token, context);
    }

    @Override
    public JsonWebToken verify(String token, PublicKey key) throws ParseException {
        return delegate.verify(token, key);
    }

    @Override
    public JsonWebToken verify(String token, SecretKey key) throws ParseException {
        return delegate.verify(token, key);
    }

    @Override
    public JsonWebToken verify(String token, String secret) throws ParseException {
        return delegate.verify(token, secret);
    }

    @Override
    public JsonWebToken decrypt(String token, PrivateKey key) throws ParseException {
        return delegate.decrypt(token, key);
    }

    @Override
    public JsonWebToken decrypt(String token, SecretKey key) throws ParseException {
        return delegate.decrypt(token, key);
    }

    @Override
    public JsonWebToken decrypt(String token, String secret) throws ParseException {
        return delegate.decrypt(token, secret);
    }

    @Override
    public JsonWebToken parseOnly(String token) throws ParseException {
        return delegate.parseOnly(token);
    }
}
