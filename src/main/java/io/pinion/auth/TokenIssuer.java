package io.pinion.auth;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.smallrye.jwt.build.Jwt;

/**
 * Signs bearer tokens: subject = user id, upn = username, groups = roles.
 */
@ApplicationScoped
public class TokenIssuer {

    private final AuthConfig config;

    TokenIssuer(AuthConfig config) {
        this.config = config;
    }

    /**
     * A signed token for the user with the roles granted to them (besides {@code user}). RSA signing costs about a
     * millisecond: call it off the event loop.
     */
    public String issue(PinionId userId, String username, Collection<String> granted) {
        return issue(userId, username, granted, config.tokenTtl());
    }

    /** Like {@link #issue(PinionId, String, Collection)}, valid for {@code ttl}. */
    public String issue(PinionId userId, String username, Collection<String> granted, Duration ttl) {
        Set<String> groups = new HashSet<>(granted);
        groups.add(Roles.USER);
        return Jwt.issuer(config.issuer())
                .subject(userId.toString())
                .upn(username)
                .groups(groups)
                .expiresIn(ttl)
                .sign();
    }
}
