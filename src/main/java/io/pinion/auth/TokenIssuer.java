package io.pinion.auth;

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

    /** A signed token for the user. RSA signing costs about a millisecond: call it off the event loop. */
    public String issue(PinionId userId, String username) {
        Set<String> groups = new HashSet<>();
        groups.add(Roles.USER);
        if (config.admins().map(admins -> admins.contains(username)).orElse(false)) {
            groups.add(Roles.ADMIN);
        }
        if (config.workers().map(workers -> workers.contains(username)).orElse(false)) {
            groups.add(Roles.WORKER);
        }
        return Jwt.issuer(config.issuer())
                .subject(userId.toString())
                .upn(username)
                .groups(groups)
                .expiresIn(config.tokenTtl())
                .sign();
    }
}
