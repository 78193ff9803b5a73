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
 * {@code worker}, the user's stored grants ({@link UserGrants}, cached for a minute) decide, so a revoked role stops
 * working within a minute although the token lives longer. Tokens with no privileged role cost nothing here.
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
            return Uni.createFrom().item(identity);
        }
        return grants.of(user).map(stored -> {
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
        });
    }
}
