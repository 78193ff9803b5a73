package io.pinion.users;

import java.util.HashSet;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.pinion.auth.Roles;
import io.pinion.id.PinionId;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * A token's privileged roles count only while they are still granted: for a token that claims {@code admin} or
 * {@code worker}, the user's stored grants ({@link UserGrants}, read from MySQL and reused for at most 30 s) decide,
 * so a revoked role stops working within that time although the token lives longer; a token whose subject is no user
 * id keeps no privileged role. Tokens with no privileged role cost nothing here.
 */
@ApplicationScoped
public class StoredRoles implements SecurityIdentityAugmentor {

    private final UserGrants grants;

    StoredRoles(UserGrants grants) {
        this.grants = grants;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken token)
                || (!identity.hasRole(Roles.ADMIN) && !identity.hasRole(Roles.WORKER))) {
            return Uni.createFrom().item(identity);
        }
        PinionId user;
        try {
            user = PinionId.parse(token.getSubject());
        } catch (RuntimeException e) {
            return Uni.createFrom().item(rebuilt(identity, Grants.NONE));
        }
        return grants.of(user).map(stored -> rebuilt(identity, stored));
    }

    /** The identity with the privileged roles it claims that are also stored: none when the subject is no user. */
    private static SecurityIdentity rebuilt(SecurityIdentity identity, Grants stored) {
        Set<String> roles = new HashSet<>();
        for (String role : identity.getRoles()) {
            if (Roles.USER.equals(role) || stored.hasRole(role)) {
                roles.add(role);
            }
        }
        return QuarkusSecurityIdentity.builder()
                .setPrincipal(identity.getPrincipal())
                .addCredentials(identity.getCredentials())
                .addAttributes(identity.getAttributes())
                .addRoles(roles)
                .addPermissions(identity.getPermissions())
                .build();
    }
}
