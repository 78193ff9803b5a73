package io.pinion.auth;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.pinion.failure.Unauthenticated;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;

/**
 * The user the request's bearer token speaks for.
 */
@RequestScoped
public class CurrentUser {

    @Inject
    JsonWebToken token;

    public PinionId id() {
        String subject = token.getSubject();
        if (subject == null) {
            throw new Unauthenticated("unauthorized", "a valid bearer token is required");
        }
        try {
            PinionId id = PinionId.parse(subject);
            if (id.type() == ObjectType.USER) {
                return id;
            }
        } catch (IllegalArgumentException e) {
            // fall through
        }
        throw new Unauthenticated("unauthorized", "the token does not name a user");
    }
}
